import { MailServer } from './mail-server';

/*
 * Ipswitch IMail Server, identified by its X-Mailer ("<SMTP32 v…>"). Its "Undeliverable Mail"
 * notice gives no code, one line per recipient: "Unknown user: <address>" or "Invalid final
 * delivery userid: <address>" when the local part has no mailbox (a full mailbox reads
 * differently, "Mailbox … is full").
 */
export const imail: MailServer = {
  family: 'imail',
  identifies: (mail) => /^<smtp32 v/i.test(mail.header('x-mailer') ?? ''),
  addressFailure: /unknown user:|invalid final delivery userid:/i,
};
