import { headOf, MailServer } from './mail-server';

/*
 * Yahoo (and AOL, on the same mail system), identified by the sender of its own reports
 * (MAILER-DAEMON at yahoo.*) or, in another server's report, by one of its hosts
 * (`mta1061.mail.ne1.yahoo.com` in its reply, `mta5.am0.yahoodns.net` as the host that said it),
 * in the report's own words or its delivery status part.
 * Yahoo answers an unknown user after DATA, not at RCPT ("554 delivery error: dd This user
 * doesn't have a yahoo.com account", "552 1 Requested mail action aborted, mailbox not found"),
 * so the usual "it answered RCPT TO" test never holds for it; and its own reports say "No mx
 * record found for domain=…" for a domain that takes no mail.
 */
// Its hosts as a reply or a report names them: never looked for in a quoted original.
const YAHOO_HOST = /\.mail\.[a-z0-9]+\.yahoo\.com\b|\.yahoodns\.net\b/i;

export const yahoo: MailServer = {
  family: 'yahoo',
  identifies: (mail) =>
    /^mailer-daemon@yahoo\.[a-z.]+$/.test(mail.from ?? '') ||
    [headOf(mail), ...mail.parts('message/delivery-status')].some((own) => YAHOO_HOST.test(own)),
  refusesUnknownAddressAfterData: true,
  addressFailure:
    /this user doesn'?t have an? (?:yahoo|ymail|rocketmail|aol)\.[a-z.]+ account|requested mail action aborted, mailbox not found|no mx record found for domain/i,
};
