import { MailServer } from './mail-server';

/*
 * Ipswitch IMail Server, identified by its X-Mailer ("<SMTP32 v…>"). Its "Undeliverable Mail"
 * notice gives no code, one line per recipient: "Unknown user: <address>" or "Invalid final
 * delivery userid: <address>" when the local part has no mailbox, "Unknown host" when the domain
 * does not resolve (a full mailbox reads differently: "User mailbox exceeds allowed size").
 */
export const imail: MailServer = {
  family: 'imail',
  identifies: (mail) => /^<smtp32 v/i.test(mail.header('x-mailer') ?? ''),
  addressFailure: /unknown user:|invalid final delivery userid:|unknown host:/i,
};
