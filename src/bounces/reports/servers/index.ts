import { ReportMail } from '../report-mail';
import { exchange2003 } from './exchange-2003';
import { exim } from './exim';
import { google } from './google';
import { hotmail } from './hotmail';
import { imail } from './imail';
import { kddi } from './kddi';
import { lotusNotes } from './lotus-notes';
import { MailServer } from './mail-server';
import { messageLabs } from './messagelabs';
import { openSmtpd } from './opensmtpd';
import { smail } from './smail';
import { verizon } from './verizon';
import { yahoo } from './yahoo';

export type { MailServer } from './mail-server';

/** The server families whose own words Mailroom reads; each file says how it is known and why. */
const SERVERS: MailServer[] = [
  google,
  yahoo,
  hotmail,
  exchange2003,
  lotusNotes,
  imail,
  openSmtpd,
  exim,
  smail,
  verizon,
  kddi,
  messageLabs,
];

/** The servers a report shows it comes from (or quotes): usually one, two when a relay quotes another. */
export function serversOf(mail: ReportMail): MailServer[] {
  return SERVERS.filter((server) => server.identifies(mail));
}
