import { MailServer } from './mail-server';

/*
 * Symantec/Broadcom Email Security.cloud (MessageLabs), identified by the sender of its notices
 * (MAILER-DAEMON at messagelabs.com) and the X-Msg-Ref header it stamps on them. It filters mail
 * for its customers' domains and checks each recipient against the addresses the customer
 * registered, refusing an unregistered one with its own non-standard reply "542 <address>
 * Rejected" (a full mailbox or a policy refusal from it reads otherwise: "550-Please turn on SMTP
 * Authentication…", a 5.x.x with words).
 */
export const messageLabs: MailServer = {
  family: 'messagelabs',
  identifies: (mail) =>
    /^mailer-daemon@messagelabs\.com$/.test(mail.from ?? '') && mail.header('x-msg-ref') !== undefined,
  addressFailure: /\b542 [^\s@]+@[^\s@]+ rejected\b/i,
};
