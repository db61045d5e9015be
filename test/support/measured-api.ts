import { readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../../src/platform/free-port';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from './child-processes';

export const MiB = 1024 * 1024;
/** The memory suites' bound on an API process's RSS. */
export const MAX_RSS_MB = 300;
// Base64 in 76-character lines makes 13.8 MiB of attachment some 18.9 MiB of message.
export const ATTACHMENT_BYTES = Math.round(13.8 * MiB);
/** A first start may build (about 15 s here, longer on a busy machine). */
export const BUILD_AND_START_MS = 150_000;

/** An API process (with SMTP submission) whose memory a suite measures from /proc. */
export interface MeasuredApi {
  service: ServiceProcess;
  port: number;
  base: string;
  smtpPort: number;
  /** The process's RSS now (VmRSS) or its peak (VmHWM), in MB. */
  statusMb: (field: 'VmRSS' | 'VmHWM') => number;
  /** Starts the peak (VmHWM) again from the RSS now (Linux: 5 in clear_refs). */
  resetPeak: () => void;
}

/**
 * Starts ROLE=api as `npm start` runs it (package.json: the build, made first when the sources
 * changed, with 4 MiB semi-spaces), taking submissions of 19 MiB over SMTP, and waits until it answers.
 */
export async function startMeasuredApi(env: Record<string, string> = {}): Promise<MeasuredApi> {
  const port = await freePort();
  const smtpPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startServiceProcess(
    {
      ROLE: 'api',
      HOST: '127.0.0.1',
      PORT: String(port),
      SUBMISSION_SMTP_PORT: String(smtpPort),
      SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
      MAX_ATTACHMENT_BYTES: String(15 * MiB),
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      LOG_LEVEL: 'warn',
      ...env,
    },
    { command: [process.execPath, '--max-semi-space-size=4', 'scripts/start.js'] },
  );
  await waitUntilAnswering(`${base}/health`, service, BUILD_AND_START_MS);
  const status = () => readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return {
    service,
    port,
    base,
    smtpPort,
    statusMb: (field) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())![1]) / 1024),
    resetPeak: () => writeFileSync(`/proc/${service.child.pid}/clear_refs`, '5'),
  };
}
