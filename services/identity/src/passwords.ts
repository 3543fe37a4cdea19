// Password hashing: argon2id (@node-rs/argon2, OWASP's minimum: 19 MiB, 2 passes). Behind a
// small adapter so use cases do not know the algorithm, and so an unknown email costs the same
// time as a wrong password (verifyAgainstNothing).
import { hash, verify, type Options } from "@node-rs/argon2";

export interface Passwords {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
  /** Spends what a verification spends, for accounts that do not exist. Always false. */
  verifyAgainstNothing(password: string): Promise<false>;
}

// algorithm 2 is Argon2id (the library's const enum cannot be imported under isolatedModules).
const OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function argon2Passwords(): Passwords {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, OPTIONS),
    async verify(stored, password) {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    async verifyAgainstNothing(password) {
      dummy ??= hash("verdict-no-such-account", OPTIONS);
      await verify(await dummy, password).catch(() => false);
      return false;
    },
  };
}

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
