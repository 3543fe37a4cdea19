// Key expiry needs time to pass. The all-in-one launcher takes a clock adapter (DESIGN.md: side
// effects come in through adapters), so this suite runs the real services in-process over real
// HTTP and gRPC and moves the clock instead of waiting 30 minutes. All-in-one specific: a clock
// cannot be handed to separate processes, so the distributed pass skips it (what it checks is
// the identity service's logic, the same code in both modes).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { launch, readConfig, type RunningVerdict } from "@verdict/all-in-one";
import { createLogger } from "@verdict/kit";
import { Api, expectError } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { TARGET } from "../support/server.js";

const describeAllInOne = TARGET === "all-in-one" ? describe : describe.skip;

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const dataDir = mkdtempSync(join(tmpdir(), "verdict-expiry-"));
const bootstrapKey = makeKey();
let running: RunningVerdict;
let api: Api;

beforeAll(async () => {
  const config = readConfig({
    VERDICT_HTTP_PORT: "0",
    VERDICT_HTTP_HOST: "127.0.0.1",
    VERDICT_DATA_DIR: dataDir,
    VERDICT_BOOTSTRAP_API_KEY: bootstrapKey,
    VERDICT_AUTH_CACHE_TTL_MS: "0",
  });
  running = await launch(config, { clock, logger: createLogger("expiry-test", "silent") });
  api = new Api(`http://127.0.0.1:${running.httpPort}`, bootstrapKey);
});
afterAll(async () => {
  await running.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describeAllInOne("key expiry", () => {
  it("answers AUTH_EXPIRED_KEY once a 30m key's time is up, and lists it as expired", async () => {
    const created = await api.post("/v1/api-keys", { name: "short", scopes: ["read:evaluations"], expiration: "30m" });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect((await api.get("/v1/evaluations", { key })).status).toBe(200);
    offsetMs = 29 * 60_000;
    expect((await api.get("/v1/evaluations", { key })).status).toBe(200);
    offsetMs = 31 * 60_000;
    expectError(await api.get("/v1/evaluations", { key }), 401, "unauthorized", "AUTH_EXPIRED_KEY");
    const listed = (await api.get("/v1/api-keys")).body.api_keys.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.expires_at).toBe(created.body.expires_at);
    // keys that never expire keep working
    expect((await api.get("/v1/auth/verify")).status).toBe(200);
  });
});
