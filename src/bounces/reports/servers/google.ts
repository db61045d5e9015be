import { MailServer } from './mail-server';

/*
 * Gmail and Google Workspace, identified by the sender of their reports (mailer-daemon at
 * googlemail.com or google.com). Google heads a report with what it made of the remote reply
 * and writes two versions of "Address not found": "because the address couldn't be found. Check
 * for typos or unnecessary spaces and try again." when it is sure (its own DNS lookup, a 5.1.x
 * from the remote), and "…couldn't be found, or is unable to receive mail." when it is not (a
 * bare 550, a sender refusal). Only the sure one is read as an address failure.
 */
export const google: MailServer = {
  family: 'google',
  identifies: (mail) => /^mailer-daemon@(?:googlemail|google)\.com$/.test(mail.from ?? ''),
  addressFailure: /the address couldn'?t be found\. check for typos/i,
};
