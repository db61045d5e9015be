import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { noticeSkip } from './skip-notice';

const run = promisify(execFile);

/** Why certificates cannot be made here (no openssl binary), or undefined when they can. */
export const OPENSSL_MISSING: string | undefined =
  spawnSync('openssl', ['version']).status === 0 ? undefined : 'no openssl binary on PATH (apt-get install openssl)';

/** `it` when openssl can make certificates; else `it.skip`, saying so once per file. */
export function itIfOpenssl(skippedWhat: string): jest.It {
  if (!OPENSSL_MISSING) return it;
  noticeSkip(`${skippedWhat} SKIPPED: ${OPENSSL_MISSING}`);
  return it.skip;
}

/** A new RSA key and a self-signed certificate for it, with the X.509 extensions given (`name=value`). */
function selfSigned(keyPath: string, certPath: string, days: number, commonName: string, extensions: string[]) {
  return run('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath],
    ...['-days', String(days), '-subj', `/CN=${commonName}`],
    ...extensions.flatMap((extension) => ['-addext', extension]),
  ]);
}

/**
 * A self-signed certificate (its own CA) for the subject alternative names given (`DNS:host`,
 * `IP:127.0.0.1`), made with the openssl binary in a temporary folder `dir` the caller removes.
 */
export async function selfSignedCertificate(
  subjectAltNames: string[],
): Promise<{ dir: string; certPath: string; keyPath: string; cert: Buffer; key: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'self-signed-'));
  const [certPath, keyPath] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  const commonName = subjectAltNames[0].replace(/^(DNS|IP):/, '');
  await selfSigned(keyPath, certPath, 1, commonName, [`subjectAltName=${subjectAltNames.join(',')}`]).catch(
    (error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    },
  );
  return { dir, certPath, keyPath, cert: readFileSync(certPath), key: readFileSync(keyPath) };
}

/** A certificate and its key, as PEM files and as text. */
export interface IssuedCertificate {
  certPath: string;
  keyPath: string;
  cert: string;
  key: string;
}

/**
 * A certificate authority of the test's own, made with the openssl binary in a temporary folder:
 * its certificate (`certPath`, for MTA_STS_CA_FILE or a client's `ca`) and leaf certificates it
 * signs for given DNS names (an HTTPS or STARTTLS server's). `remove()` deletes the folder.
 */
export class TestCa {
  private issued = 0;

  private constructor(
    readonly dir: string,
    readonly certPath: string,
    readonly keyPath: string,
  ) {}

  get cert(): string {
    return readFileSync(this.certPath, 'utf8');
  }

  static async create(commonName = 'Mailroom Test CA'): Promise<TestCa> {
    const dir = mkdtempSync(join(tmpdir(), 'test-ca-'));
    const ca = new TestCa(dir, join(dir, 'ca.pem'), join(dir, 'ca-key.pem'));
    await selfSigned(ca.keyPath, ca.certPath, 2, commonName, [
      'basicConstraints=critical,CA:TRUE',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return ca;
  }

  /** A leaf certificate signed by this CA, valid for `names` (the first is its subject's CN). */
  async issue(...names: string[]): Promise<IssuedCertificate> {
    const n = ++this.issued;
    const keyPath = join(this.dir, `leaf-${n}-key.pem`);
    const csrPath = join(this.dir, `leaf-${n}.csr`);
    const certPath = join(this.dir, `leaf-${n}.pem`);
    const extPath = join(this.dir, `leaf-${n}.ext`);
    writeFileSync(
      extPath,
      [
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth',
        `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`,
      ].join('\n'),
    );
    await run('openssl', [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      csrPath,
      '-subj',
      `/CN=${names[0]}`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      csrPath,
      '-CA',
      this.certPath,
      '-CAkey',
      this.keyPath,
      '-CAcreateserial',
      '-out',
      certPath,
      '-days',
      '1',
      '-extfile',
      extPath,
    ]);
    return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
