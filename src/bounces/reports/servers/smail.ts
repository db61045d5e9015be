import { headOf, MailServer } from './mail-server';

/*
 * Smail 3 and the servers that copied its notice (old T-Online, some mail clients' own notices),
 * identified by its ruled sections "|---- Failed addresses follow: ----|". Each failed address is
 * followed by "... <reason>"; "unknown host" is its verdict when the recipient's domain does not
 * resolve.
 */
export const smail: MailServer = {
  family: 'smail',
  identifies: (mail) => /^\|?-+ ?failed addresses follow:/im.test(headOf(mail)),
  addressFailure: /\.\.\. unknown host\b/i,
};
