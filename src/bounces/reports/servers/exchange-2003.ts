import { MailServer } from './mail-server';

/*
 * Microsoft Exchange 5.5 to 2003 (its Internet Mail Service), identified by its X-Mailer
 * ("Internet Mail Service (5.5.…)") or the MSEXCH diagnostic lines it writes under each
 * recipient. It writes no status code in its "did not reach the following recipient(s)" notice;
 * "The recipient name is not recognized" is its wording for a mailbox its directory lacks, and
 * 000C05A6 the internal code of that "Unknown Recipient" on the MSEXCH line.
 */
export const exchange2003: MailServer = {
  family: 'exchange-2003',
  identifies: (mail) => /internet mail service/i.test(mail.header('x-mailer') ?? '') || /\bMSEXCH:/.test(mail.text),
  addressFailure: /the recipient name is not recognized|\(000c05a6\)/i,
};
