import { MailServer } from './mail-server';

/*
 * Verizon Wireless's MMS gateway (vzwpix.com, vtext.com), identified by the sender of its
 * notices (the MMSC NDR administrator at a vzwpix.com host, the postmaster of vtext.com). "No
 * valid recipients for this MM" (MMS) and "550 - Requested action not taken: no such user here"
 * (SMS) are its answers for a number that is no Verizon subscriber: the address does not exist.
 */
export const verizon: MailServer = {
  family: 'verizon',
  identifies: (mail) => /@(?:[\w-]+\.)*(?:vzwpix|vtext)\.com$/.test(mail.from ?? ''),
  addressFailure: /no valid recipients for this mm\b|requested action not taken: no such user here/i,
};
