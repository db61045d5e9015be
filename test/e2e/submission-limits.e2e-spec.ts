// What one client may take of the submission server (docs/api.md#smtp-submission), each limit at its value and one
// past: 100 connections (the 101st: 421), a session of at most 5 minutes however busy (421 and
// closed), 3 failed logins in a session (the 3rd: 421 and closed), 20 failed logins from one
// address within a minute (then 421 at connect until the minute ends). Clients: nodemailer, and a
// raw client where a test must hold a session in a state no real client would. Each test connects
// from a loopback address of its own, so that the per-address count of one does not reach another.
import type { Server } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { SubmissionLimits } from '../../src/sender/submission/submission-limits';
import { SubmissionSmtpServer } from '../../src/sender/submission/submission-smtp.server';
import { noConnectionsWithin } from '../support/sockets';
import { RawSmtpClient } from '../support/raw-smtp-client';
import { bootTestApp, TestApp } from '../support/test-app';
import { newUserId } from '../support/tokens';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../support/submission/submission-clients';

// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included: nothing above it
const ASCII = /^[\x00-\x7f]*$/;
const mail = { from: 'a@sender.example', to: 'b@rcpt.example', subject: 'limits', text: 'hi' };
/** The submission server's own TCP server, to see its connections counted out. */
const listeningSocketOf = (t: TestApp): Server =>
  t.app.get<SubmissionSmtpServer, { listening: { server: SMTPServer } }>(SubmissionSmtpServer).listening.server.server;
const plain = (password: string) => Buffer.from(`\0anyone\0${password}`).toString('base64');

describe('limits of the submission server (docs/api.md#smtp-submission)', () => {
  let t: TestApp;
  const clients: RawSmtpClient[] = [];
  beforeAll(async () => {
    t = await bootTestApp({ SUBMISSION_SMTP_PORT: '0', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) {
      // Whatever a client was sent is ASCII (docs/api.md#smtp-submission), refusals and hang-ups included.
      expect(client.received()).toMatch(ASCII);
      client.destroy();
    }
  });
  afterAll(() => t?.close());

  const limits = () => t.app.get(SubmissionLimits);
  const rawClient = (localAddress?: string) => {
    const client = new RawSmtpClient(submissionPort(t), localAddress);
    clients.push(client);
    return client;
  };

  it('has the limits docs/api.md#smtp-submission gives by default', () => {
    expect(new SubmissionLimits()).toMatchObject({
      clients: 100,
      clientsPerAddress: 20,
      sessionMs: 5 * 60_000,
      failedLoginsPerSession: 3,
      failedLoginsPerAddress: 20,
      failedLoginWindowMs: 60_000,
    });
    // The app's own, which the tests below shorten where they must.
    expect(limits()).toMatchObject({ clients: 100, sessionMs: 5 * 60_000 });
  });

  it('greets 100 concurrent clients and answers the 101st (nodemailer) with 421, then serves again once one leaves', async () => {
    const userId = newUserId('crowd');
    const { key } = await apiKeyFor(t, userId);
    // Spread over ten addresses: one address may hold twenty connections at most.
    const crowd = Array.from({ length: 100 }, (_, i) => rawClient(`127.0.1.${i % 10}`));
    await Promise.all(crowd.map((c) => c.greeted()));
    expect(crowd.map((c) => c.replies()[0]?.slice(0, 4))).toEqual(Array(100).fill('220 '));

    const from = { localAddress: '127.0.1.10' };
    expect(await submitWithNodemailer(submissionPort(t), key, mail, from)).toMatchObject({
      accepted: false,
      code: 421,
      reply: expect.stringContaining('Too many connected clients'),
    });

    crowd[0].destroy();
    // The server counts it out as it goes (the signal: a greeting that is 220 again).
    let outcome = await submitWithNodemailer(submissionPort(t), key, mail, from);
    for (let attempt = 0; attempt < 100 && !outcome.accepted; attempt++)
      outcome = await submitWithNodemailer(submissionPort(t), key, mail, from);
    expect(outcome).toMatchObject({ accepted: true });

    // The next test starts with none of them counted.
    for (const c of crowd) c.destroy();
    expect(await noConnectionsWithin(listeningSocketOf(t), 10_000)).toBe(true);
  }, 60_000);

  it('cuts off a session that keeps talking at the session limit (421), serving it until then', async () => {
    const saved = limits().sessionMs;
    limits().sessionMs = 2_000;
    try {
      // Before the connection: the session's time starts later, at its connection.
      const started = Date.now();
      const client = rawClient('127.0.0.4');
      await client.greeted();
      // NOOPs a byte every 100 ms, one each 600 ms: the idle timeout never fires. The bytes due by
      // the clock are written at each wake, so late timers on a busy machine delay no NOOP.
      const drip = 'NOOP\r\n'.repeat(100);
      for (let written = 0; !client.closed && Date.now() - started < 10_000;) {
        const due = Math.min(drip.length, Math.floor((Date.now() - started) / 100) + 1);
        if (due > written) client.write(drip.slice(written, due));
        written = due;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const elapsed = Date.now() - started;

      const [greeting, ...replies] = client.replies();
      expect(greeting).toMatch(/^220 /);
      // Served up to the limit (NOOPs done at 0.6 s and 1.2 s at least)…
      expect(replies.length).toBeGreaterThanOrEqual(3);
      expect(replies.slice(0, -1)).toEqual(Array(replies.length - 1).fill(expect.stringMatching(/^250 /)));
      // …and cut off there.
      expect(replies.at(-1)).toMatch(/^421 .*session too long/);
      expect(elapsed).toBeGreaterThanOrEqual(2_000);
      expect(elapsed).toBeLessThan(6_000);
    } finally {
      limits().sessionMs = saved;
    }
  }, 30_000);

  it('leaves a session open after 2 failed logins and closes it with 421 at the 3rd; a good key still logs in after 2', async () => {
    const userId = newUserId('guesser');
    const { key } = await apiKeyFor(t, userId);
    const login = async (client: RawSmtpClient, password: string) => {
      const before = client.replies().length;
      client.write(`AUTH PLAIN ${plain(password)}\r\n`);
      await client.waitFor((c) => c.replies().length > before || c.closed, 'the AUTH reply');
      return client.replies().at(-1);
    };

    const guesser = rawClient('127.0.0.5');
    await guesser.greeted();
    guesser.write('EHLO guesser.example\r\n');
    await guesser.waitFor((c) => c.replies().length === 2, 'EHLO');
    expect(await login(guesser, 'mr_wrong-1')).toMatch(/^535 /);
    expect(await login(guesser, 'mr_wrong-2')).toMatch(/^535 /);
    expect(guesser.closed).toBe(false);
    expect(await login(guesser, 'mr_wrong-3')).toMatch(/^421 .*too many failed logins/i);
    await guesser.waitFor((c) => c.closed, 'the session to close');

    const forgetful = rawClient('127.0.0.5');
    await forgetful.greeted();
    forgetful.write('EHLO forgetful.example\r\n');
    await forgetful.waitFor((c) => c.replies().length === 2, 'EHLO');
    expect(await login(forgetful, 'mr_wrong-1')).toMatch(/^535 /);
    expect(await login(forgetful, 'mr_wrong-2')).toMatch(/^535 /);
    expect(await login(forgetful, key)).toMatch(/^235 /);
  });

  it('answers the 21st idle connection of one address with 421 while nodemailer from another address submits', async () => {
    const { key } = await apiKeyFor(t, newUserId('beside-idle'));
    const idle = Array.from({ length: 20 }, () => rawClient('127.0.0.20'));
    await Promise.all(idle.map((c) => c.greeted()));
    expect(idle.map((c) => c.replies()[0]?.slice(0, 4))).toEqual(Array(20).fill('220 '));

    const extra = rawClient('127.0.0.20');
    await extra.waitFor((c) => c.closed, 'the 21st to be turned away');
    expect(extra.replies()).toEqual([expect.stringMatching(/^421 Too many connections from your address/)]);
    expect(await submitWithNodemailer(submissionPort(t), key, mail, { localAddress: '127.0.0.21' })).toMatchObject({
      accepted: true,
    });

    for (const c of idle) c.destroy();
    expect(await noConnectionsWithin(listeningSocketOf(t), 10_000)).toBe(true);
  });

  it('refuses at connect (421) an address with 20 failed logins in the window, serves it at 19, and again once the window ends', async () => {
    const savedWindow = limits().failedLoginWindowMs;
    // A window short enough to see end; it is read when an address's window starts.
    const windowMs = 15_000;
    limits().failedLoginWindowMs = windowMs;
    try {
      const userId = newUserId('sprayer');
      const { key } = await apiKeyFor(t, userId);
      const from = { localAddress: '127.0.0.6' };
      // 19 failures, each its own nodemailer session (nodemailer gives up at the first 535); the window starts at the first.
      expect(await submitWithNodemailer(submissionPort(t), 'mr_wrong-0', mail, from)).toMatchObject({
        accepted: false,
        code: 535,
      });
      const windowEndsBy = Date.now() + windowMs;
      for (let i = 1; i < 19; i++)
        expect(await submitWithNodemailer(submissionPort(t), `mr_wrong-${i}`, mail, from)).toMatchObject({
          accepted: false,
          code: 535,
        });
      // At 19 the address is still served: this session logs in and sends.
      expect(await submitWithNodemailer(submissionPort(t), key, mail, from)).toMatchObject({ accepted: true });
      expect(await submitWithNodemailer(submissionPort(t), 'mr_wrong-20', mail, from)).toMatchObject({
        accepted: false,
        code: 535,
      });

      // The 21st connection, with the right key even, is turned away before it can log in.
      expect(await submitWithNodemailer(submissionPort(t), key, mail, from)).toMatchObject({
        accepted: false,
        code: 421,
        reply: expect.stringContaining('failed logins'),
      });
      const refused = rawClient('127.0.0.6');
      await refused.waitFor((c) => c.closed, 'the refusal');
      expect(refused.replies()).toEqual([expect.stringMatching(/^421 .*failed logins/)]);
      // Another address is not held to this one's failures.
      expect(await submitWithNodemailer(submissionPort(t), key, mail, { localAddress: '127.0.0.7' })).toMatchObject({
        accepted: true,
      });
      // All of it within the window, or this test proved nothing.
      expect(Date.now()).toBeLessThan(windowEndsBy - windowMs / 3);

      // Once the window has ended, the address is served again.
      await new Promise((resolve) => setTimeout(resolve, windowEndsBy - Date.now() + 100));
      expect(await submitWithNodemailer(submissionPort(t), key, mail, from)).toMatchObject({ accepted: true });
    } finally {
      limits().failedLoginWindowMs = savedWindow;
    }
  }, 60_000);

  it('refuses AUTH (421) in a session opened before its address ran out of failed logins, even with the right key', async () => {
    const { key } = await apiKeyFor(t, newUserId('early-opener'));
    const login = async (client: RawSmtpClient, password: string) => {
      const before = client.replies().length;
      client.write(`AUTH PLAIN ${plain(password)}\r\n`);
      await client.waitFor((c) => c.replies().length > before || c.closed, 'the AUTH reply');
      return client.replies().at(-1);
    };
    // Eleven sessions from one address, all open before any login fails.
    const sessions = Array.from({ length: 11 }, () => rawClient('127.0.0.8'));
    for (const session of sessions) {
      await session.greeted();
      session.write('EHLO early.example\r\n');
      await session.waitFor((c) => c.replies().length === 2, 'EHLO');
    }
    // Ten of them fail twice each (no session reaches its own limit of 3): 20 for the address.
    for (const session of sessions.slice(0, 10)) {
      expect(await login(session, 'mr_wrong-a')).toMatch(/^535 /);
      expect(await login(session, 'mr_wrong-b')).toMatch(/^535 /);
    }
    // The eleventh, greeted while the address was still in budget, may not try any more.
    expect(await login(sessions[10], key)).toMatch(/^421 .*failed logins/);
    await sessions[10].waitFor((c) => c.closed, 'the session to close');
  });
});
