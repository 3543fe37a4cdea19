// Attacks on API keys over real HTTP: a restricted key minting a broader one, and a leaked
// operator key that could never be retired.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { MAIN, ROOT, startVerdict, type Verdict } from "../support/server.js";

describe("key containment", () => {
  let v: Verdict;
  let api: Api;
  beforeAll(async () => {
    v = await startVerdict();
    api = new Api(v.url, v.bootstrapKey);
  });
  afterAll(async () => v.destroy());

  const mint = async (body: Record<string, unknown>, by: Api = api) => by.post("/v1/api-keys", { name: "k", ...body });

  it("refuses a never-expiring prod key with no allowlist from a 30-minute, IP-restricted test admin key", async () => {
    const restricted = await mint({
      scopes: ["admin"],
      expiration: "30m",
      environment: "test",
      ip_allowlist: "127.0.0.1/32",
    });
    expect(restricted.status).toBe(201);
    const attacker = api.withKey(restricted.body.key);

    const escalate = await mint(
      { scopes: ["admin"], expiration: "never", environment: "prod", ip_allowlist: "0.0.0.0/0" },
      attacker,
    );
    expectFieldError(escalate, 422, "expiration", "INVALID_ENUM");
    expectFieldError(escalate, 422, "environment", "INVALID_ENUM");
    expectFieldError(escalate, 422, "ip_allowlist", "INVALID_ENUM");
    expect(escalate.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "environment",
      "expiration",
      "ip_allowlist",
    ]);

    // Each dimension alone is refused, with its own field.
    expectFieldError(
      await mint({ scopes: ["read:org"], expiration: "never", environment: "test" }, attacker),
      422,
      "expiration",
      "INVALID_ENUM",
    );
    expectFieldError(
      await mint({ scopes: ["read:org"], expiration: "24h", environment: "test" }, attacker),
      422,
      "expiration",
      "INVALID_ENUM",
    );
    // The default environment is the caller's; naming prod is refused.
    const prod = await mint({ scopes: ["read:org"], expiration: "30m", environment: "prod" }, attacker);
    expect(prod.status).toBe(422);
    expect(prod.body.details.errors.map((e: { field: string }) => e.field)).toContain("environment");

    // Nothing was created by the refused attempts.
    const list = await api.get("/v1/api-keys");
    expect(
      list.body.api_keys.filter(
        (k: { environment: string; expires_at: string | null }) => k.environment === "prod" && k.expires_at === null,
      ),
    ).toHaveLength(1);
  });

  it("lets a restricted key create keys within itself, inheriting its allowlist and environment", async () => {
    const parent = await mint({
      scopes: ["admin"],
      expiration: "24h",
      environment: "test",
      ip_allowlist: "127.0.0.0/8",
    });
    const child = await mint({ scopes: ["read:evaluations"], expiration: "30m" }, api.withKey(parent.body.key));
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({
      environment: "test",
      ip_allowlist: "127.0.0.0/8",
      scopes: ["read:evaluations"],
    });
    expect(child.body.key).toMatch(/^vdt_key_test_/);
    const narrower = await mint(
      { scopes: ["read:org"], expiration: "30m", ip_allowlist: "127.0.0.1" },
      api.withKey(parent.body.key),
    );
    expect(narrower.status).toBe(201);
    expect(narrower.body.ip_allowlist).toBe("127.0.0.1/32");
    const wider = await mint(
      { scopes: ["read:org"], expiration: "30m", ip_allowlist: "127.0.0.0/7" },
      api.withKey(parent.body.key),
    );
    expectFieldError(wider, 422, "ip_allowlist", "INVALID_ENUM");
  });

  it("refuses an allowlist that names no range instead of making an unrestricted key", async () => {
    expectFieldError(await mint({ scopes: ["read:org"], ip_allowlist: ",,," }), 400, "ip_allowlist", "INVALID_FORMAT");
  });
});

describe("operator key rotation", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "verdict-adv-keys-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("retires the old operator key when VERDICT_BOOTSTRAP_API_KEY changes, and lets it be revoked", async () => {
    const oldKey = makeKey("prod");
    const first = await startVerdict({ dataDir, bootstrapKey: oldKey });
    const api1 = new Api(first.url, oldKey);
    const oldId = (await api1.get("/v1/auth/verify")).body.key_id as string;
    // While it is the operator's key, it cannot be revoked through the API.
    expect((await api1.delete(`/v1/api-keys/${oldId}`)).status).toBe(422);
    expect(await first.stop()).toBe(0);

    const newKey = makeKey("prod");
    const second = await startVerdict({ dataDir, bootstrapKey: newKey });
    try {
      const api2 = new Api(second.url, newKey);
      expectError(await api2.get("/v1/auth/verify", { key: oldKey }), 401, "unauthorized", "AUTH_REVOKED_KEY");
      expectError(
        await api2.post("/v1/organizations", { name: "Leaked" }, { key: oldKey }),
        401,
        "unauthorized",
        "AUTH_REVOKED_KEY",
      );
      expect((await api2.post("/v1/organizations", { name: "Rotated" })).status).toBe(201);
      // Recorded in the log by id, never by value.
      const log = second.output();
      expect(log).toMatch(new RegExp(`"key_id":"${oldId}"[^\\n]*operator key retired`));
      expect(log).not.toContain(oldKey);
      expect(log).not.toContain(newKey);
      // Listed as revoked; revoking it for good works.
      const listed = (await api2.get("/v1/api-keys")).body.api_keys.find((k: { id: string }) => k.id === oldId);
      expect(listed.status).toBe("revoked");
      expect((await api2.delete(`/v1/api-keys/${oldId}`)).status).toBe(204);
      expectError(await api2.delete(`/v1/api-keys/${oldId}`), 410, "not_found", "RESOURCE_DELETED");
    } finally {
      expect(await second.stop()).toBe(0);
    }

    // Going back to the retired key is refused at start-up, as a configuration error.
    const back = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        VERDICT_HTTP_PORT: "0",
        VERDICT_HTTP_HOST: "127.0.0.1",
        VERDICT_DATA_DIR: dataDir,
        VERDICT_BOOTSTRAP_API_KEY: oldKey,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    back.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((res) => back.once("exit", res));
    expect(code).toBe(2);
    expect(err).toContain("VERDICT_BOOTSTRAP_API_KEY names a key that was revoked");
    expect(err).not.toContain(oldKey);
  });
});
