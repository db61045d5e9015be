import { connect } from 'node:net';
import { SubmissionSmtpServer } from '../../../src/sender/submission/submission-smtp.server';
import { bootTestApp } from '../../support/test-app';

const SUBMISSION = { SUBMISSION_SMTP_PORT: '0', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' };

/** Resolves to the server's first line, or to the connection error's code. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (data) => {
      resolve(data.toString().trim());
      socket.destroy();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('the SMTP submission server and the process roles (docs/configuration.md, docs/api.md#smtp-submission)', () => {
  it('runs in an API process from start to close, and not at all in a worker', async () => {
    const api = await bootTestApp({ ...SUBMISSION, ROLE: 'api' });
    const port = api.app.get(SubmissionSmtpServer).port!;
    expect(await greeting(port)).toMatch(/^220 /);
    await api.close();
    expect(await greeting(port)).toBe('ECONNREFUSED');

    // A database of its own: a worker on the shared one would take up other suites' deliveries.
    const worker = await bootTestApp({ ...SUBMISSION, ROLE: 'worker' }, { isolatedDatabase: true });
    try {
      expect(worker.app.get(SubmissionSmtpServer).port).toBeUndefined();
    } finally {
      await worker.close();
    }
  });
});
