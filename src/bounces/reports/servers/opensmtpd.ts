import { headOf, MailServer } from './mail-server';

/*
 * OpenSMTPD, identified by its notice's fixed opening ("This is the MAILER-DAEMON, please DO NOT
 * REPLY to this e-mail." and "An error has occurred while attempting to deliver a message for the
 * following list of recipients"). Each recipient line carries OpenSMTPD's own verdict without a
 * code: "Domain does not exist" and "Invalid domain name" are its DNS lookup finding no such
 * domain, "No MX found for domain" (or "for destination") a domain that publishes no mail host.
 * Not "Destination seem to reject all mails": every MX refused, which may be a policy.
 */
export const openSmtpd: MailServer = {
  family: 'opensmtpd',
  identifies: (mail) => /this is the mailer-daemon, please do not reply/i.test(headOf(mail)),
  addressFailure: /:\s*(?:domain does not exist|invalid domain name|no mx found for (?:domain|destination))\b/i,
};
