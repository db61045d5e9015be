import { MailServer } from './mail-server';

/*
 * Yahoo (and AOL, on the same mail system), identified by the sender of its own reports
 * (MAILER-DAEMON at yahoo.*) or, in another server's report, by one of its hosts
 * (`mta1061.mail.ne1.yahoo.com` in its reply, `mta5.am0.yahoodns.net` as the host that said it).
 * Yahoo answers an unknown user after DATA, not at RCPT ("554 delivery error: dd This user
 * doesn't have a yahoo.com account", "552 1 Requested mail action aborted, mailbox not found"),
 * so the usual "it answered RCPT TO" test never holds for it; and its own reports say "No mx
 * record found for domain=…" for a domain that takes no mail.
 */
export const yahoo: MailServer = {
  family: 'yahoo',
  identifies: (mail) =>
    /^mailer-daemon@yahoo\.[a-z.]+$/.test(mail.from ?? '') ||
    /\.mail\.[a-z0-9]+\.yahoo\.com\b|\.yahoodns\.net\b/i.test(mail.text),
  addressFailure:
    /this user doesn'?t have an? (?:yahoo|ymail|rocketmail|aol)\.[a-z.]+ account|requested mail action aborted, mailbox not found|no mx record found for domain/i,
};
