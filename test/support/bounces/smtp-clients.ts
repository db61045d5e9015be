// SMTP clients nobody here wrote, to hand mail to the inbound listener: nodemailer's SMTP
// transport, swaks and Python's smtplib. Each answers with the listener's reply or refusal.
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTransport } from 'nodemailer';
import { PYTHON } from '../python';
import { SWAKS } from '../swaks';

const run = promisify(execFile);

/** What the server said: `accepted` with its reply, or the code of its refusal. */
export type Outcome = { accepted: true; reply: string } | { accepted: false; code: number; reply: string };

/** nodemailer, from the null sender (as bounces are sent, RFC 5321 §4.5.5) unless told; one RCPT for each entry of `to`. */
export async function sendWithNodemailer(
  port: number,
  to: string | string[],
  raw: Buffer,
  from = '',
): Promise<Outcome> {
  const transport = createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    name: 'relay.example.net',
  });
  try {
    const info = await transport.sendMail({ envelope: { from, to: [to].flat() }, raw });
    return { accepted: true, reply: String(info.response) };
  } catch (error) {
    const { responseCode, response, message } = error as { responseCode?: number; response?: string; message: string };
    return { accepted: false, code: responseCode ?? 0, reply: response ?? message };
  } finally {
    transport.close();
  }
}

/** swaks (/usr/bin/swaks), from the null sender; the transcript is its output. */
export async function sendWithSwaks(
  port: number,
  to: string,
  raw: Buffer,
): Promise<{ exitCode: number; transcript: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'swaks-'));
  try {
    const file = join(dir, 'report.eml');
    writeFileSync(file, raw);
    const args = [
      '--server',
      '127.0.0.1',
      '--port',
      String(port),
      '--from',
      '<>',
      '--to',
      to,
      '--ehlo',
      'relay.example.net',
      '--data',
      `@${file}`,
    ];
    try {
      const { stdout } = await run(SWAKS, args);
      return { exitCode: 0, transcript: stdout };
    } catch (error) {
      const { code, stdout } = error as { code: number; stdout: string };
      return { exitCode: code, transcript: stdout };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SMTPLIB = `
import smtplib, sys, json
port, to = int(sys.argv[1]), json.loads(sys.argv[2])
raw = sys.stdin.buffer.read()
try:
    with smtplib.SMTP('127.0.0.1', port, local_hostname='relay.example.net', timeout=20) as smtp:
        smtp.sendmail('', to, raw)
    print(json.dumps({'accepted': True}))
except smtplib.SMTPRecipientsRefused as e:
    code, reply = list(e.recipients.values())[0]
    print(json.dumps({'accepted': False, 'code': code, 'reply': reply.decode()}))
except smtplib.SMTPResponseException as e:
    print(json.dumps({'accepted': False, 'code': e.smtp_code, 'reply': e.smtp_error.decode()}))
`;

/** Python's smtplib (a test using it runs under itIfPython), from the null sender; one RCPT for each entry of `to`, repeats included. */
export async function sendWithSmtplib(
  port: number,
  to: string | string[],
  raw: Buffer,
): Promise<{ accepted: boolean; code?: number; reply?: string }> {
  const child = run(PYTHON, ['-c', SMTPLIB, String(port), JSON.stringify([to].flat())]);
  child.child.stdin!.end(raw);
  const { stdout } = await child;
  return JSON.parse(stdout);
}

const CONVERSATION = `
import smtplib, sys, json, time
port, steps = int(sys.argv[1]), json.loads(sys.argv[2])
out = {'replies': [], 'disconnected': False}
smtp = smtplib.SMTP('127.0.0.1', port, local_hostname='relay.example.net', timeout=20)
smtp.ehlo()
out['features'] = smtp.esmtp_features
try:
    for step in steps:
        time.sleep(step.get('pause', 0))
        code, reply = smtp.docmd(step['cmd'])
        out['replies'].append([code, reply.decode()])
except smtplib.SMTPServerDisconnected:
    out['disconnected'] = True
print(json.dumps(out))
`;

export interface Conversation {
  /** The EHLO keywords the server offered, lower-cased, with their parameters. */
  features: Record<string, string>;
  replies: [number, string][];
  /** True when the server closed the connection before the steps ran out. */
  disconnected: boolean;
}

/** Python's smtplib: EHLO, then each command in turn (after its pause, in seconds) until the server hangs up. */
export async function converse(port: number, steps: { cmd: string; pause?: number }[]): Promise<Conversation> {
  const { stdout } = await run(PYTHON, ['-c', CONVERSATION, String(port), JSON.stringify(steps)], { timeout: 60_000 });
  return JSON.parse(stdout);
}

/**
 * A client that writes each line as UTF-8 bytes, whatever it holds, as a hostile one would (the
 * clients above refuse to): EHLO, then each line in turn; the reply to each, its last line.
 */
export async function converseRaw(port: number, lines: string[]): Promise<[number, string][]> {
  const socket = connect(port, '127.0.0.1');
  const replies: [number, string][] = [];
  let buffered = '';
  const nextReply = () =>
    new Promise<[number, string]>((resolve, reject) => {
      const read = () => {
        // A reply ends with its line whose code is followed by a space (RFC 5321 §4.2.1).
        const last = /^(\d{3}) (.*)\r\n/m.exec(buffered);
        if (!last) return;
        socket.off('data', onData).off('close', onClose);
        buffered = buffered.slice(last.index + last[0].length);
        resolve([Number(last[1]), last[2]]);
      };
      const onData = (chunk: Buffer) => ((buffered += chunk.toString('latin1')), read());
      const onClose = () => reject(new Error(`the server hung up; unread: ${buffered}`));
      socket.on('data', onData).on('close', onClose);
      read();
    });
  try {
    await nextReply();
    for (const line of ['EHLO relay.example.net', ...lines]) {
      socket.write(Buffer.from(`${line}\r\n`, 'utf8'));
      replies.push(await nextReply());
    }
    return replies.slice(1);
  } finally {
    socket.destroy();
  }
}
