// Key expiry needs time to pass. The all-in-one launcher takes a clock adapter (DESIGN.md: side
// effects come in through adapters), so this suite runs the real services in-process over real
// HTTP and gRPC and moves the clock instead of waiting 30 minutes. All-in-one specific: a clock
// cannot be handed to separate processes, so the distributed pass skips it (what it checks is
// the identity service's logic, the same code in both modes).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { launchClocked, type ClockedVerdict } from "../support/clocked.js";
import { TARGET } from "../support/server.js";

const describeAllInOne = TARGET === "all-in-one" ? describe : describe.skip;

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
let verdict: ClockedVerdict;
let api: Api;

beforeAll(async () => {
  verdict = await launchClocked("expiry", clock);
  api = verdict.api;
});
afterAll(async () => verdict.stop());

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
