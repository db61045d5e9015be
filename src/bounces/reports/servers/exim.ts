import { headOf, MailServer } from './mail-server';

/*
 * Exim 4 (and the providers that run it: Mail.ru, cPanel hosts…), identified by its notice's
 * opening "This message was created automatically by mail delivery software." When the
 * recipient's domain publishes a null MX (RFC 7505: it takes no mail) Exim writes, without a
 * code, "an MX or SRV record indicated no SMTP service".
 */
export const exim: MailServer = {
  family: 'exim',
  identifies: (mail) => /this message was created automatically by mail delivery software/i.test(headOf(mail)),
  addressFailure: /an mx or srv record indicated no smtp service/i,
};
