// One hostile mail must not freeze a worker (issue 33, item 4): 550 DKIM-Signature fields, each
// with its own `l=` (so each would make its own body hash), and a body of one 900 KiB line, sent
// to a real process as `npm start` runs it. The mail is stored within a CPU bound set by an ordinary
// mail of the same size, /health answers while it is judged, and RSS grows by little.
import { sendWithNodemailer } from '../support/bounces/smtp-clients';
import { newUserId } from '../support/tokens';
import { mailOfSize, rawMail } from '../support/inbound/hostile-mail';
import { inboundProcess, receivingDomain } from '../support/inbound/process-api';

const START_MS = 150_000;
const SIGNATURES = 550;
const LINE_BYTES = 900 * 1024;

/** The hostile mail: SIGNATURES signatures (under the 64 KiB header block limit) and one long line. */
function hostileMail(): Buffer {
  const signatures = Array.from(
    { length: SIGNATURES },
    (_, i) =>
      `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=d${i}.example; s=k; l=${i + 1}; h=from; bh=AA; b=AA`,
  );
  const raw = rawMail(
    ['From: cara@example.org', 'Subject: hostile', ...signatures],
    `${'w '.repeat(LINE_BYTES / 2)}\r\n`,
  );
  expect(raw.indexOf('\r\n\r\n')).toBeLessThan(64 * 1024);
  return raw;
}

describe('an inbound mail of 550 DKIM signatures and a 900 KiB line', () => {
  const { dns, api, base, smtpPort, memoryMb, cpuMs } = inboundProcess(START_MS);

  /**
   * Sends the mail; while it is in flight, asks /health again and again. Each answer's wait, the
   * mail's time and the CPU the process spent meanwhile, in ms.
   */
  const sendWhileProbing = async (to: string, raw: Buffer) => {
    let done = false;
    const started = Date.now();
    const cpuBefore = cpuMs();
    const sent = sendWithNodemailer(smtpPort(), to, raw, 'cara@example.org').finally(() => (done = true));
    const waits: number[] = [];
    do {
      const asked = Date.now();
      expect((await fetch(`${base()}/health`)).status).toBe(200);
      waits.push(Date.now() - asked);
    } while (!done);
    const outcome = await sent;
    return { outcome, ms: Date.now() - started, cpuMs: cpuMs() - cpuBefore, waits };
  };

  it('stores it promptly, verifying a bounded number of signatures, while /health answers', async () => {
    const userId = newUserId('verifier-load');
    const domainName = await receivingDomain(api, dns, userId, 'load');
    const to = `desk@${domainName}`;
    const hostile = hostileMail();

    // What this machine takes now for an ordinary mail of the same size (after a first one, which
    // loads what the first mail needs): the yardstick.
    expect((await sendWhileProbing(to, mailOfSize(hostile.length))).outcome).toMatchObject({ accepted: true });
    const ordinary = await sendWhileProbing(to, mailOfSize(hostile.length));
    expect(ordinary.outcome).toMatchObject({ accepted: true });
    const rssBefore = memoryMb('VmRSS');
    const attack = await sendWhileProbing(to, hostile);
    const peakMb = memoryMb('VmHWM');
    console.log(
      `${(hostile.length / 1e6).toFixed(2)} MB, ${SIGNATURES} signatures: stored in ${attack.ms} ms, ${attack.cpuMs} ms of CPU ` +
        `(an ordinary mail: ${ordinary.ms} ms, ${ordinary.cpuMs} ms of CPU); ` +
        `/health waits ${Math.max(...attack.waits)} ms at most over ${attack.waits.length} probes; RSS ${Math.round(rssBefore)} MB, peak ${Math.round(peakMb)} MB`,
    );

    expect(attack.outcome).toMatchObject({ accepted: true });
    // Judged by the process's CPU, which the load of other processes hardly changes; its wall time does.
    expect(attack.cpuMs).toBeLessThan(Math.max(5_000, 10 * ordinary.cpuMs));
    // A probe waits a moment of the mail's work at most, not the work itself.
    expect(Math.max(...attack.waits)).toBeLessThan(Math.max(1_000, 3 * Math.max(...ordinary.waits)));
    expect(peakMb - rssBefore).toBeLessThan(150);

    const { inbound } = await api(userId, 'GET', '/user/inbound?take=10').then((r) => r.body);
    const stored = inbound.find((item: { subject: string }) => item.subject === 'hostile');
    // None of the signatures verifies (no key, a wrong body hash): neutral, as mailauth reads them.
    expect(stored.authentication.dkim).toBe('neutral');
  }, 300_000);
});
