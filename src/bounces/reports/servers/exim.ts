import { headOf, MailServer } from './mail-server';

/*
 * Exim 4 (and the providers that run it: Mail.ru, cPanel hosts…), identified by its notice's
 * opening "This message was created automatically by mail delivery software." When the
 * recipient's domain publishes a null MX (RFC 7505: it takes no mail) Exim writes, without a
 * code, "an MX or SRV record indicated no SMTP service"; when DNS answers that the domain's mail
 * hosts do not exist, "all relevant MX records point to non-existent hosts" or "all host address
 * lookups failed permanently" (the temporary case says "…failed temporarily" and is retried).
 * Not "Unrouteable address": a router configuration can say that of a real domain.
 */
export const exim: MailServer = {
  family: 'exim',
  identifies: (mail) => /this message was created automatically by mail delivery software/i.test(headOf(mail)),
  addressFailure:
    /an mx or srv record indicated no smtp service|all relevant mx records point to non-existent hosts|all host address lookups failed permanently/i,
};
