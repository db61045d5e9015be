import { SmtpSink } from './smtp-sink';
import { bootTestApp, TestApp } from './test-app';

/**
 * For the describe it is called in: a ROLE=all app on a database of its own, delivering to a real
 * SMTP sink, booted before its tests and stopped after them. `t` is filled in by beforeAll.
 */
export function deliveringApp(env: Record<string, string> = {}): { t: TestApp; sink: SmtpSink } {
  const sink = new SmtpSink();
  const t = {} as TestApp;
  beforeAll(async () => {
    const port = await sink.start();
    Object.assign(t, await bootTestApp({ ROLE: 'all', SMTP_URL: sink.url(port), ...env }, { isolatedDatabase: true }));
  });
  afterAll(async () => {
    await t.close?.();
    await sink.stop();
  });
  return { t, sink };
}
