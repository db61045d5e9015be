import { randomUUID } from 'node:crypto';
import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { storeMessage } from '../factories';
import { bearer } from '../tokens';

/** The tokens the app makes, under its own key: what a List-Unsubscribe link of that app carries. */
export const unsubscribeTokens = (encryptionKey: string) => new RecipientTokens(encryptionKey, 'unsubscribe');

/** An address of its own per call, so that no two tests share a suppression. */
export const address = (label: string) => `${label}-${randomUUID()}@example.com`;

/** A stored bulk message of `userId`, with the recipients given. */
export async function bulkMessage(
  db: DataSource,
  userId: string,
  recipients: { to: string[]; cc?: string[]; bcc?: string[] },
) {
  return storeMessage(db, userId, {
    recipients: recipients.to,
    cc: recipients.cc ?? null,
    bcc: recipients.bcc ?? null,
    bulkSendingId: 'spring',
  });
}

/** The owner's suppression list as GET /user/suppressions answers it. */
export async function suppressionsOf(
  http: TestAgent,
  userId: string,
): Promise<{ email: string; reason: string; scope: string; messageId: string | null; createdAt: string }[]> {
  const { body } = await http.get('/user/suppressions').set(bearer(userId)).expect(200);
  return body.suppressions;
}

/**
 * A POST whose body goes in `kibibytes` chunks of 1 KiB with no Content-Length (Node's client
 * chunks a body of unknown length), which supertest cannot send; the answer as it came.
 */
export function postChunked(
  server: AddressInfo,
  path: string,
  kibibytes: number,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: { detail?: string } }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: server.address,
        port: server.port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: JSON.parse(Buffer.concat(chunks).toString()),
          }),
        );
      },
    );
    // The server answers before the body ends and then stops reading: a write after that may fail, the answer stands.
    request.on('error', reject);
    for (let i = 0; i < kibibytes; i++) request.write('a'.repeat(1024));
    request.end();
  });
}
