// The SDK (packages/sdk) as a user runs it: over real HTTP against an app listening on loopback.
import type { AddressInfo } from 'node:net';
import { Mailroom, type MailroomOptions } from '../../packages/sdk/src';
import type { TestApp } from './test-app';
import { tokenFor } from './tokens';

/** Starts the app's HTTP listener on a free loopback port (once) and returns its base URL. */
export async function baseUrlOf(t: TestApp): Promise<string> {
  const server = t.app.getHttpServer();
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A client signed in as `userId` (a JWT signed with the test key). */
export function sdkAs(baseUrl: string, userId: string, options: Partial<MailroomOptions> = {}): Mailroom {
  return new Mailroom({ baseUrl, token: tokenFor(userId), ...options });
}

/** What a call threw (a test that expects a refusal reads it whole). */
export async function thrown(call: Promise<unknown>): Promise<any> {
  return call.then(
    (value) => {
      throw new Error(`Expected a refusal, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
