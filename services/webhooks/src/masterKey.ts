// The webhook master key: from VERDICT_WEBHOOK_MASTER_KEY, or (one machine, one data directory)
// a key generated on the first start and kept beside the data, readable by this user only.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type Logger } from "@verdict/kit";
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
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  logger.warn({ file }, "generated the webhook master key (VERDICT_WEBHOOK_MASTER_KEY is unset); back it up with the data directory");
  return key;
}
