// The webhook master key: from VERDICT_WEBHOOK_MASTER_KEY, or (all-in-one on one machine) a key
// generated on the first start and kept beside the data, readable by this user only.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type Logger } from "@verdict/kit";
import { MASTER_KEY_BYTES, parseMasterKey } from "@verdict/webhooks";
import type { Config } from "./config.js";

export const MASTER_KEY_FILE = "webhook-master.key";

export function resolveMasterKey(config: Config, logger: Logger): Buffer {
  if (config.VERDICT_WEBHOOK_MASTER_KEY) return parseMasterKey(config.VERDICT_WEBHOOK_MASTER_KEY);
  const file = join(config.dataDir, MASTER_KEY_FILE);
  if (existsSync(file)) {
    try {
      return parseMasterKey(readFileSync(file, "utf8"));
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${file}: ${(err as Error).message}`);
    }
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(MASTER_KEY_BYTES);
  // "wx": never overwrite a key another process wrote meanwhile (it would orphan its secrets).
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  logger.warn({ file }, "generated the webhook master key (VERDICT_WEBHOOK_MASTER_KEY is unset); back it up with the data directory");
  return key;
}
