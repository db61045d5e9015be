import { MailServer } from './mail-server';

/*
 * KDDI's au mobile mail (ezweb.ne.jp, au.com), identified by a report about one of its addresses:
 * only KDDI's own servers receive for those domains, so a reply quoting such an address comes
 * from them. They write no status code, and their two refusals differ by one detail: "550
 * <a@ezweb.ne.jp>: User unknown", with the address, answers RCPT TO for an address that does not
 * exist, while "550 : User unknown", without it, is the user's own filter refusing the sender
 * after DATA (the address is real). Only the first is read as an address failure.
 */
const KDDI_DOMAIN = /@(?:ezweb\.ne\.jp|(?:[\w-]+\.)?au\.com)\b/i;

export const kddi: MailServer = {
  family: 'kddi',
  identifies: (mail) =>
    KDDI_DOMAIN.test(mail.text) || mail.parts('message/delivery-status').some((part) => KDDI_DOMAIN.test(part)),
  addressFailure: /\b550:? <[^<>\s@]+@(?:ezweb\.ne\.jp|(?:[\w-]+\.)?au\.com)>: user unknown/i,
};
