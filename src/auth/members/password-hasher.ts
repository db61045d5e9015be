import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2, a const enum that transpile-only builds cannot read.
const ARGON2ID = 2;

/**
 * Members' passwords as Argon2id hashes (the library's defaults: 19 MiB, 2 passes, OWASP's
 * minimum). An unknown address is checked against a dummy hash, so that it takes as long to
 * refuse as a wrong password (docs/teams.md#signing-in).
 */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID });
  }

  /** Whether `password` is the one `stored` hashes; undefined `stored` spends the same time and says no. */
  async verify(stored: string | undefined, password: string): Promise<boolean> {
    if (stored === undefined) {
      await verify(await (this.dummy ??= this.hash('not anyone’s password, only spent time')), password).catch(
        () => false,
      );
      return false;
    }
    return verify(stored, password).catch(() => false);
  }
}
