import { MailServer } from './mail-server';

/*
 * KDDI's au mobile mail (ezweb.ne.jp, au.com), identified by the failed recipient's domain: only
 * KDDI's own servers receive for those domains, so a refusal of such a recipient is their reply.
 * They write no status code, and their two refusals differ by one detail: "550
 * <a@ezweb.ne.jp>: User unknown", with the address, answers RCPT TO for an address that does not
 * exist, while "550 : User unknown", without it, is the user's own filter refusing the sender
 * after DATA (the address is real). Only the first is read as an address failure.
 */
export const kddi: MailServer = {
  family: 'kddi',
  receivesFor: /^(?:ezweb\.ne\.jp|(?:[\w-]+\.)?au\.com)$/i,
  addressFailure: /\b550:? <[^<>\s@]+@(?:ezweb\.ne\.jp|(?:[\w-]+\.)?au\.com)>: user unknown/i,
};
