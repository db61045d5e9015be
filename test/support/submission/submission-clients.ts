// SMTP submission clients nobody here wrote: nodemailer's SMTP transport and swaks, logging in
// with an API key; and what a test needs around them (an app with the server on, a key, a certificate).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTransport, SendMailOptions } from 'nodemailer';
import { SubmissionSmtpServer } from '../../../src/sender/submission/submission-smtp.server';
import type { TestApp } from '../test-app';
import { bearer } from '../tokens';
import { SWAKS } from '../swaks';
import { selfSignedCertificate } from '../test-ca';

const run = promisify(execFile);

/** The server's answer: accepted with its reply (`… Queued as <id>`), or refused with its code. */
export type Outcome =
  { accepted: true; reply: string; messageId: string } | { accepted: false; code: number; reply: string };

export const submissionPort = (t: TestApp): number => t.app.get(SubmissionSmtpServer).port!;

/** A new API key of the user, through POST /user/api-keys. */
export async function apiKeyFor(t: TestApp, userId: string, scopes = ['send']): Promise<{ id: string; key: string }> {
  const { body } = await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'smtp', scopes }).expect(201);
  return { id: body.id, key: body.key };
}

const outcomeOf = (reply: string): Outcome => ({
  accepted: true,
  reply,
  messageId: /Queued as (\S+)/.exec(reply)?.[1] ?? '',
});

/**
 * nodemailer's SMTP transport, composing `mail` itself (or sending `raw`), logged in with `password`
 * (none: no AUTH); with `ca`, over STARTTLS verified against it; from `localAddress` when given.
 */
export async function submitWithNodemailer(
  port: number,
  password: string | undefined,
  mail: SendMailOptions,
  connection: { ca?: Buffer; localAddress?: string } = {},
): Promise<Outcome> {
  const transport = createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(connection.localAddress && { localAddress: connection.localAddress }),
    ...(connection.ca
      ? { requireTLS: true, tls: { ca: connection.ca, servername: 'localhost' } }
      : { ignoreTLS: true }),
    ...(password !== undefined && { auth: { user: 'anyone', pass: password } }),
  });
  try {
    return outcomeOf(String((await transport.sendMail(mail)).response));
  } catch (error) {
    const { responseCode, response, message } = error as { responseCode?: number; response?: string; message: string };
    return { accepted: false, code: responseCode ?? 0, reply: response ?? message };
  } finally {
    transport.close();
  }
}

/** swaks (/usr/bin/swaks): DATA is the file's bytes as they are; with `caPath`, STARTTLS first, verifying the server against it. */
export async function submitWithSwaks(
  port: number,
  password: string,
  from: string,
  to: string[],
  raw: Buffer,
  caPath?: string,
  authMechanism: 'PLAIN' | 'LOGIN' = 'PLAIN',
): Promise<{ exitCode: number; transcript: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'swaks-'));
  try {
    const file = join(dir, 'message.eml');
    writeFileSync(file, raw);
    const args = [
      '--server',
      '127.0.0.1',
      '--port',
      String(port),
      '--from',
      from,
      '--to',
      to.join(','),
      '--auth',
      authMechanism,
      '--auth-user',
      'anyone',
      '--auth-password',
      password,
      '--data',
      `@${file}`,
    ];
    if (caPath) args.push('--tls', '--tls-verify', '--tls-ca-path', caPath);
    try {
      const { stdout, stderr } = await run(SWAKS, args, { timeout: 60_000 });
      return { exitCode: 0, transcript: stdout + stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { exitCode: code, transcript: stdout + stderr };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A self-signed certificate for `localhost` made by openssl: the PEM file paths and the certificate itself. */
export function localhostCertificate(): ReturnType<typeof selfSignedCertificate> {
  return selfSignedCertificate(['DNS:localhost', 'IP:127.0.0.1']);
}

/**
 * The bytes after the header block of a message this test wrote or received (up to the first
 * empty line, RFC 5322 §2.1): what must arrive as it was submitted, byte for byte.
 */
export function bodyOf(raw: Buffer): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  return raw.subarray(end + 4);
}
