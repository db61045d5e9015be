import { AddressInfo, createServer } from 'node:net';
import { createTransport } from 'nodemailer';
import type { SMTPServerSession } from 'smtp-server';
import { RawSmtpClient } from '../../../test/support/raw-smtp-client';
import { waitFor } from '../../../test/support/wait-for';
import { SmtpListening } from './smtp-listening';
import { SmtpSessionLimits } from './smtp-session-limits';

const HOST = '127.0.0.1';
const MESSAGE = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'Hello' };
const onClientError = () => undefined;

describe(SmtpListening.name, () => {
  let listening: SmtpListening<{ n: number }>;
  let limits: SmtpSessionLimits;
  const seen: (ReturnType<typeof listening.session> | 'closed')[] = [];

  beforeEach(() => {
    limits = new SmtpSessionLimits();
    listening = new SmtpListening(limits);
    seen.length = 0;
  });
  afterEach(() => listening.close());

  /** Listens on a free port; each DATA records the session's state, and a session's id is kept for the test. */
  async function listen(open: (session: SMTPServerSession) => { n: number } | Error = () => ({ n: 1 }), port = 0) {
    const ids: string[] = [];
    await listening.listen(
      {
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        onData: (stream, session, callback) => {
          ids.push(session.id);
          seen.push(listening.session(session.id));
          stream.resume();
          stream.on('end', () => callback());
        },
      },
      open,
      { port, host: HOST, onClientError },
    );
    return { port: listening.port!, ids };
  }

  it('keeps the state `open` gave a session until the session closes', async () => {
    const { port, ids } = await listen();
    const transport = createTransport({ host: HOST, port, secure: false, ignoreTLS: true });
    await transport.sendMail(MESSAGE);
    transport.close();

    expect(seen).toEqual([{ n: 1 }]);
    await waitFor(() => listening.session(ids[0]) === undefined, 'the session to be forgotten');
  });

  it('refuses a session at connect with the error `open` returns', async () => {
    const { port } = await listen(() => Object.assign(new Error('Not you'), { responseCode: 421 }));
    const transport = createTransport({ host: HOST, port, secure: false, ignoreTLS: true });

    await expect(transport.sendMail(MESSAGE)).rejects.toMatchObject({ responseCode: 421 });
    expect(seen).toEqual([]);
  });

  it('takes 20 connections from one address, answers the 21st with 421, and still serves another address', async () => {
    const { port } = await listen();
    const held = Array.from({ length: 20 }, () => new RawSmtpClient(port, '127.0.0.2'));
    try {
      await Promise.all(held.map((c) => c.greeted()));
      expect(held.map((c) => c.replies()[0]?.slice(0, 4))).toEqual(Array(20).fill('220 '));

      const extra = new RawSmtpClient(port, '127.0.0.2');
      await extra.waitFor((c) => c.closed, 'the 21st to be turned away');
      expect(extra.replies()).toEqual(['421 Too many connections from your address, try again later']);
      // Another address sends its mail (nodemailer), while the first holds its twenty.
      const transport = createTransport({
        host: HOST,
        port,
        secure: false,
        ignoreTLS: true,
        localAddress: '127.0.0.3',
      });
      await expect(transport.sendMail(MESSAGE)).resolves.toMatchObject({ accepted: ['b@example.com'] });
      transport.close();

      // One of the twenty leaves: once the server has counted it out, the address is served again.
      held.pop()!.destroy();
      let again = new RawSmtpClient(port, '127.0.0.2');
      await again.greeted();
      for (let n = 0; n < 100 && !again.replies()[0]?.startsWith('220 '); n++) {
        again.destroy();
        again = new RawSmtpClient(port, '127.0.0.2');
        await again.greeted();
      }
      expect(again.replies()[0]).toMatch(/^220 /);
      held.push(again);
    } finally {
      for (const c of held) c.destroy();
    }
  });

  it('hangs up with 421 on a session that outlives sessionMs, however busy it keeps', async () => {
    limits.sessionMs = 300;
    const { port } = await listen();
    const client = new RawSmtpClient(port);
    await client.greeted();
    // Busy all along: a NOOP every 50 ms, well within any idle timeout.
    const busy = setInterval(() => client.write('NOOP\r\n'), 50);
    try {
      await client.waitFor((c) => c.closed, 'the server to hang up', 5_000);
    } finally {
      clearInterval(busy);
    }
    expect(client.replies()).toContain('421 Error: session too long, closing connection');
  });

  it('rejects when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, HOST, resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(listen(undefined, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(listening.port).toBeUndefined();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
