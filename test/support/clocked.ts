// An all-in-one Verdict in this process with a clock the test moves (the launcher takes a clock
// adapter: DESIGN.md, side effects through adapters), for suites that need time to pass: key
// expiry, audit retention. A clock cannot be handed to separate processes, so these suites run
// in the all-in-one pass only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, readConfig } from "@verdict/all-in-one";
import { createLogger } from "@verdict/kit";
import { Api } from "./api.js";
import { makeKey } from "./keys.js";

export interface ClockedVerdict {
  /** The bootstrap key's client. */
  api: Api;
  bootstrapKey: string;
  stop(): Promise<void>;
}

/** Starts an instance on a fresh data directory, reading `clock`; stop() removes the directory. */
export async function launchClocked(
  name: string,
  clock: { now(): Date },
  env: Record<string, string> = {},
): Promise<ClockedVerdict> {
  const dataDir = mkdtempSync(join(tmpdir(), `verdict-${name}-`));
  const bootstrapKey = makeKey();
  const config = readConfig({
    VERDICT_HTTP_PORT: "0",
    VERDICT_HTTP_HOST: "127.0.0.1",
    VERDICT_DATA_DIR: dataDir,
    VERDICT_BOOTSTRAP_API_KEY: bootstrapKey,
    VERDICT_AUTH_CACHE_TTL_MS: "0",
    ...env,
  });
  const running = await launch(config, { clock, logger: createLogger(`${name}-test`, "silent") });
  return {
    api: new Api(`http://127.0.0.1:${running.httpPort}`, bootstrapKey),
    bootstrapKey,
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
