// What the replica suites read off an app: where its reads went (mailroom_database_reads_total),
// whether it may use its replica, and a caller's list as the API answers it.
import { ReadReplica } from '../../src/platform/database/replica/read-replica';
import { Metrics } from '../../src/platform/metrics/metrics';
import type { TestApp } from './test-app';
import { bearer } from './tokens';
import { waitFor } from './wait-for';

/** Waits until the app's probe finds its replica usable. */
export async function replicaUsable(t: TestApp): Promise<void> {
  await waitFor(() => t.app.get(ReadReplica).state().usable, 'the replica to be usable', 30_000);
}

/** The subjects of the caller's first page of messages, newest first. */
export async function subjects(t: TestApp, user: string): Promise<string[]> {
  const response = await t.http.get('/user/messages').set(bearer(user)).expect(200);
  return (response.body.messages as { subject: string }[]).map((message) => message.subject);
}

/** The app's reads so far, by `target/reason`. */
export async function readsOf(t: TestApp): Promise<Record<string, number>> {
  const { values } = await t.app.get(Metrics).databaseReads.get();
  return Object.fromEntries(values.map(({ labels, value }) => [`${labels.target}/${labels.reason}`, value]));
}
