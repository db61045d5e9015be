import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { DELIVERY_QUEUE, DeliveryQueue } from '../../../src/platform/queue/delivery-queue';
import { sendBody } from '../../support/factories';
import { PYTHON, pythonPresent } from '../../support/python';
import { noticeSkip } from '../../support/skip-notice';
import { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const b64 = (bytes: Buffer) => bytes.toString('base64');
const statuses = (message: { statusHistory: { status: string }[] }) => message.statusHistory.map((e) => e.status);

/** Python's email package (the reader that showed mojibake), when Python is installed. */
const python = pythonPresent();
if (!python)
  noticeSkip(
    `The check of text attachments as Python's email package reads them SKIPPED: no Python at ${PYTHON} (apt-get install python3)`,
  );
const PYTHON_READER = `
import email, email.policy, json, sys
mail = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
print(json.dumps({a.get_filename(): a.get_content() for a in mail.iter_attachments() if a.get_content_maintype() == 'text'}))
`;
function textAttachmentsAsPythonReadsThem(raw: Buffer): Record<string, string> {
  const run = spawnSync(PYTHON, ['-c', PYTHON_READER], { input: raw });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

describe('delivery over SMTP', () => {
  const sink = new SmtpSink();
  let t: TestApp;

  const jobsOf = (messageId: string): Promise<{ state: string }[]> =>
    t.db.query(`SELECT state FROM pgboss.job WHERE data->>'messageId' = $1 ORDER BY created_on`, [messageId]);

  async function waitForJobs(messageId: string, done: (jobs: { state: string }[]) => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (let jobs = await jobsOf(messageId); !done(jobs); jobs = await jobsOf(messageId)) {
      if (Date.now() > deadline) throw new Error(`the jobs of ${messageId} never settled: ${JSON.stringify(jobs)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    const port = await sink.start();
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: sink.url(port), DELIVERY_RETRY_DELAYS: '1,1', WORKER_CONCURRENCY: '4' },
      { isolatedDatabase: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });
  afterEach(() => {
    sink.reply = () => 'accept';
    sink.refuseRecipients.clear();
  });

  const send = async (userId: string, overrides: Record<string, unknown> = {}) =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body;

  it('hands the message to the SMTP server as a complete MIME message, then marks it sent', async () => {
    const userId = newUserId();
    const pdf = Buffer.from('%PDF-1.4 not really');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const message = await send(userId, {
      sender: 'billing@example.com',
      to: ['ada@example.com', 'grace@example.com'],
      subject: 'Ünïcode invoice',
      html: '<h1>Invoice</h1><p>Total: <b>42 €</b></p>',
      attachments: [
        { fileName: 'invoice.pdf', content: b64(pdf) },
        { fileName: 'logo.png', content: b64(png) },
      ],
    });
    const delivered = await waitForStatus(t.http, userId, message.id, 'sent');
    expect(statuses(delivered)).toEqual(['queued', 'sending', 'sent']);
    expect(delivered.statusHistory[2].detail).toMatch(/^250 2\.0\.0 Ok: queued as \d+ \(relay 127\.0\.0\.1:\d+\)$/);
    // The reply names the relay; `route` is direct delivery's alone (a pooled session does not say whether it used TLS).
    expect(delivered.recipients.map((r: { route: unknown }) => r.route)).toEqual([null, null]);

    const [mail] = sink.acceptedFor(message.id);
    expect(mail.from).toBe('billing@example.com');
    expect(mail.to).toEqual(['ada@example.com', 'grace@example.com']);
    expect(mail.parsed.from?.text).toBe('billing@example.com');
    expect(mail.parsed.subject).toBe('Ünïcode invoice');
    expect(mail.parsed.messageId).toBe(`<${message.id}@example.com>`);
    expect(mail.parsed.html).toContain('<p>Total: <b>42 €</b></p>');
    expect(mail.parsed.text).toContain('Total: 42 €');
    expect(mail.parsed.text).not.toContain('<b>');
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType, a.content])).toEqual([
      ['invoice.pdf', 'application/pdf', pdf],
      ['logo.png', 'image/png', png],
    ]);
    const metrics = (await t.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^mailroom_deliveries_total\{outcome="sent"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^mailroom_delivery_latency_seconds_count [1-9]\d*$/m);
    expect(metrics).toMatch(/^mailroom_delivery_record_seconds_count [1-9]\d*$/m);
  });

  it('labels a text attachment as UTF-8 when its bytes are, so that readers do not show mojibake', async () => {
    const userId = newUserId();
    const utf8 = Buffer.from('Grüße aus Köln — naïve café ☃\n');
    const latin1 = Buffer.from('Grüße aus Köln\n', 'latin1');
    const message = await send(userId, {
      attachments: [
        { fileName: 'notes.txt', content: b64(utf8) },
        { fileName: 'table.csv', content: b64(Buffer.from('city,temp\nZürich,3\n')) },
        { fileName: 'legacy.txt', content: b64(latin1) },
        { fileName: 'logo.png', content: b64(Buffer.from([0x89, 0x50, 0x4e, 0x47])) },
      ],
    });
    await waitForStatus(t.http, userId, message.id, 'sent');
    const [mail] = sink.acceptedFor(message.id);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.headers.get('content-type')])).toEqual([
      ['notes.txt', { value: 'text/plain', params: { name: 'notes.txt', charset: 'utf-8' } }],
      ['table.csv', { value: 'text/csv', params: { name: 'table.csv', charset: 'utf-8' } }],
      // Not UTF-8: no charset rather than a false one.
      ['legacy.txt', { value: 'text/plain', params: { name: 'legacy.txt' } }],
      ['logo.png', { value: 'image/png', params: { name: 'logo.png' } }],
    ]);
    expect(mail.parsed.attachments.map((a) => a.content)).toEqual([
      utf8,
      Buffer.from('city,temp\nZürich,3\n'),
      latin1,
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    ]);
    if (python) {
      const read = textAttachmentsAsPythonReadsThem(mail.raw);
      expect([read['notes.txt'], read['table.csv']]).toEqual([utf8.toString(), 'city,temp\nZürich,3\n']);
    }
  });

  it('defers after a 4xx reply, retries on DELIVERY_RETRY_DELAYS, and is accepted once', async () => {
    const userId = newUserId();
    sink.reply = (_mail, attempt) => (attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : 'accept');
    const message = await send(userId);
    const delivered = await waitForStatus(t.http, userId, message.id, 'sent');
    expect(statuses(delivered)).toEqual(['queued', 'sending', 'deferred', 'sending', 'sent']);
    expect(delivered.statusHistory[2].detail).toContain('451 4.3.0 Try again later');
    const deferredAt = Date.parse(delivered.statusHistory[2].at);
    expect(Date.parse(delivered.statusHistory[3].at) - deferredAt).toBeGreaterThanOrEqual(900);
    expect(sink.acceptedFor(message.id)).toHaveLength(1);
    expect(sink.attemptsFor(message.id)).toBe(2);
  });

  it('fails at once on a 5xx reply, without retrying', async () => {
    const userId = newUserId();
    sink.reply = () => ({ code: 554, message: '5.7.1 Message rejected as spam' });
    const message = await send(userId);
    const failed = await waitForStatus(t.http, userId, message.id, 'failed');
    expect(statuses(failed)).toEqual(['queued', 'sending', 'failed']);
    expect(failed.statusHistory[2].detail).toContain('554 5.7.1 Message rejected as spam');
    // A retry would have been queued in the transaction that recorded the failure: there is none.
    expect(await jobsOf(message.id)).toEqual([{ state: 'completed' }]);
    expect(sink.attemptsFor(message.id)).toBe(1);
  });

  it('fails when every recipient is refused with 550, and is sent to the others when only some are', async () => {
    // Two accounts: the first refusal suppresses the address in its account (a hard bounce), so
    // the same account's second message, claimed after it, would not offer it to the relay at all.
    const [one, other] = [newUserId(), newUserId()];
    sink.refuseRecipients = new Set(['gone@example.com']);
    const all = await send(one, { to: ['gone@example.com'] });
    const some = await send(other, { to: ['gone@example.com', 'ada@example.com'] });
    const failed = await waitForStatus(t.http, one, all.id, 'failed');
    expect(failed.statusHistory.at(-1).detail).toContain('550');
    const sent = await waitForStatus(t.http, other, some.id, 'sent');
    // docs/delivery-and-deliverability.md#statuses: the refused recipient has a history entry of its own, after the message's.
    const entry = sent.statusHistory.find((e: { status: string }) => e.status === 'sent');
    expect(entry.detail).toContain('refused: gone@example.com');
    expect(sent.statusHistory.at(-1)).toMatchObject({
      recipient: 'gone@example.com',
      detail: '550 5.1.1 No such user here',
    });
    expect(sink.acceptedFor(some.id)[0].to).toEqual(['ada@example.com']);
  });

  it('fails once the retries are used up', async () => {
    const userId = newUserId();
    sink.reply = () => ({ code: 421, message: '4.7.0 Too busy' });
    const message = await send(userId);
    const failed = await waitForStatus(t.http, userId, message.id, 'failed');
    expect(statuses(failed)).toEqual(['queued', 'sending', 'deferred', 'sending', 'deferred', 'sending', 'failed']);
    expect(failed.statusHistory.at(-1).detail).toContain('gave up after 3 attempts');
    expect(sink.attemptsFor(message.id)).toBe(3);
  });

  it('ignores a duplicate or late job: a final message is not sent again or moved', async () => {
    const userId = newUserId();
    const message = await send(userId);
    const sent = await waitForStatus(t.http, userId, message.id, 'sent');
    const deliveries = t.app.get(DeliveryQueue);
    await t.db.transaction((m) =>
      deliveries.enqueue(m, [{ job: { messageId: message.id, attempt: 1 }, priority: 'normal' }]),
    );
    await t.db.transaction((m) =>
      deliveries.enqueue(m, [{ job: { messageId: message.id, attempt: 2 }, priority: 'normal' }]),
    );
    // Both jobs done with is the signal that the worker has done all it will with them.
    await waitForJobs(message.id, (jobs) => jobs.length === 3 && jobs.every((j) => j.state === 'completed'));
    const after = await waitForStatus(t.http, userId, message.id, 'sent');
    expect(after.statusHistory).toEqual(sent.statusHistory);
    expect(sink.attemptsFor(message.id)).toBe(1);
  });
});

describe('priority', () => {
  const sink = new SmtpSink();
  afterAll(() => sink.stop());

  it('delivers high before normal before low', async () => {
    const port = await sink.start();
    // The API process queues while no worker runs; then one worker with one slot drains the queue.
    const api = await bootTestApp({ SMTP_URL: sink.url(port) }, { isolatedDatabase: true });
    const userId = newUserId();
    const ids: Record<string, string> = {};
    for (const priority of ['low', 'normal', 'high', 'low', 'high']) {
      const { body } = await api.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ priority, subject: priority }))
        .expect(201);
      ids[body.id] = priority;
    }
    const worker = await bootTestApp({
      ROLE: 'worker',
      SMTP_URL: sink.url(port),
      WORKER_CONCURRENCY: '1',
      DATABASE_URL: api.config.databaseUrl!,
    });
    try {
      await sink.waitUntil(() => sink.accepted.length === 5);
      expect(sink.accepted.map((m) => m.parsed.subject)).toEqual(['high', 'high', 'normal', 'low', 'low']);
    } finally {
      await worker.close();
      await api.close();
    }
  });
});

describe('shutdown and settings', () => {
  const sink = new SmtpSink();
  afterAll(() => sink.stop());

  it('finishes a delivery it has started before the mailer closes, rather than deferring it', async () => {
    const port = await sink.start();
    const databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    try {
      for (let round = 0; round < 5; round++) {
        const t = await bootTestApp({ ROLE: 'all', SMTP_URL: sink.url(port), DATABASE_URL: databaseUrl });
        const { body } = await t.http.post('/sender/send').set(bearer(newUserId())).send(sendBody()).expect(201);
        await t.close();
        const viewer = await bootTestApp({ DATABASE_URL: databaseUrl });
        const history: { status: string; detail: string | null }[] = await viewer.db.query(
          `SELECT status, detail FROM message_status_events WHERE message_id = $1 ORDER BY id`,
          [body.id],
        );
        await viewer.close();
        expect(history.filter((e) => e.status === 'deferred')).toEqual([]);
        expect(['queued', 'sent']).toContain(history.at(-1)!.status);
      }
    } finally {
      await dropDatabase(databaseUrl);
    }
    // Ten apps started and closed: seconds each on a busy machine.
  }, 180_000);

  it('treats a transport that fails in a way of its own as a temporary failure: retried, then failed', async () => {
    const t = await bootTestApp({ ROLE: 'all', DELIVERY_RETRY_DELAYS: '0' }, { isolatedDatabase: true });
    try {
      // The outbox transport cannot create its folder where a file stands.
      writeFileSync(join(t.config.dataDir, 'outbox'), 'not a folder');
      const userId = newUserId();
      const { body } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
      const failed = await waitForStatus(t.http, userId, body.id, 'failed');
      expect(statuses(failed)).toEqual(['queued', 'sending', 'deferred', 'sending', 'failed']);
      expect(failed.statusHistory.at(-1).detail).toMatch(/EEXIST|ENOTDIR/);
      expect(failed.statusHistory.at(-1).detail).toContain('gave up after 2 attempts');
    } finally {
      await t.close();
    }
  });

  it('defers, rather than fails, when the SMTP server refuses our login (a 535 is not about the message)', async () => {
    const refusingLogin = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // Closing must not wait for the mailer's pooled connection.
      closeTimeout: 500,
      onAuth: (_auth, _session, callback) =>
        callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 })),
    });
    await new Promise<void>((resolve) => refusingLogin.listen(0, '127.0.0.1', resolve));
    const { port } = refusingLogin.server.address() as AddressInfo;
    const t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: `smtp://mailroom:wrong@127.0.0.1:${port}`, DELIVERY_RETRY_DELAYS: '600' },
      { isolatedDatabase: true },
    );
    try {
      const userId = newUserId();
      const { body } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody()).expect(201);
      const deferred = await waitForStatus(t.http, userId, body.id, 'deferred', 10_000);
      expect(statuses(deferred)).toEqual(['queued', 'sending', 'deferred']);
      expect(deferred.statusHistory.at(-1).detail).toContain('535');
    } finally {
      await t.close();
      await new Promise<void>((resolve) => refusingLogin.close(() => resolve()));
    }
  });

  it('applies a changed DELIVERY_LEASE_SECONDS to the existing queue', async () => {
    const first = await bootTestApp({}, { isolatedDatabase: true });
    try {
      const second = await bootTestApp({ DELIVERY_LEASE_SECONDS: '7', DATABASE_URL: first.config.databaseUrl! });
      await second.close();
      const [queue] = await first.db.query(`SELECT expire_seconds FROM pgboss.queue WHERE name = $1`, [DELIVERY_QUEUE]);
      expect(queue.expire_seconds).toBe(7);
    } finally {
      await first.close();
    }
  });
});
