// The instance's master key (VERDICT_WEBHOOK_MASTER_KEY, named after its first user): from
// configuration, or (one machine, one data directory) a key generated on the first start and kept
// beside the data, readable by this user only. Each user derives its own subkey (masterSubkey),
// so webhook secrets and TOTP seeds are never sealed under the same key.
import { hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config.js";
import type { Logger } from "./logger.js";
import { MASTER_KEY_BYTES, parseMasterKey } from "./secretBox.js";

export const MASTER_KEY_FILE = "webhook-master.key";

export function resolveMasterKey(configured: string | undefined, dataDir: string, logger: Logger): Buffer {
  if (configured) return parseMasterKey(configured);
  const file = join(dataDir, MASTER_KEY_FILE);
  if (existsSync(file)) {
    try {
      return parseMasterKey(readFileSync(file, "utf8"));
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${file}: ${(err as Error).message}`);
    }
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(MASTER_KEY_BYTES);
  // "wx": never overwrite a key another process wrote meanwhile (it would orphan its secrets).
  try {
    writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    // Another service of the same process tree wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return parseMasterKey(readFileSync(file, "utf8"));
    throw err;
  }
  logger.warn(
    { file },
    "generated the master key (VERDICT_WEBHOOK_MASTER_KEY is unset); back it up with the data directory",
  );
  return key;
}

/** A key for one purpose, derived from the master key (HKDF-SHA256). */
export function masterSubkey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), `verdict ${purpose}`, MASTER_KEY_BYTES));
}
