// A connection's health on the real embedded store (SQLite) and outbox: turning broken and working
// again are each announced once, written with the change, and carry no secret.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus, TOPICS, type CloudEvent, type ConnectionHealthData } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import { ProviderError, type TokenExpiry } from "../domain/provider.js";
import type { IntegrationsDeps } from "../deps.js";
import { IntegrationsRepo, type ConnectionRecord } from "../repo.js";
import { recordProviderError, recordProviderWorks, refreshTokenExpiry } from "./connectionHealth.js";

const logger = createLogger("connection-health-test", "silent");
const NOW = new Date("2026-11-28T12:00:00Z");

let store: SqliteStore;
let bus: InProcessBus;
let deps: IntegrationsDeps;
let seen: CloudEvent<ConnectionHealthData>[];

const connection: ConnectionRecord = {
  id: "conn_1",
  organization_id: "org_1",
  provider: "gitea",
  base_url: "https://git.acme.test",
  token_sealed: "sealed-token-never-sent",
  webhook_secret_sealed: "sealed-secret-never-sent",
  status: "active",
  last_event_at: null,
  last_error: null,
  last_error_at: null,
  created_at: NOW.toISOString(),
};

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(logger);
  const outbox = new Outbox({ bus, logger, sweepIntervalMs: 20, graceMs: 0 });
  const repo = new IntegrationsRepo(store, outbox);
  await repo.init();
  outbox.start();
  seen = [];
  for (const topic of [TOPICS.connectionBroken, TOPICS.connectionRestored])
    await bus.subscribe<ConnectionHealthData>(topic, "t", async (e) => void seen.push(e));
  deps = { repo, bus, outbox, logger, clock: { now: () => NOW } } as unknown as IntegrationsDeps;
  await repo.c.connections.insertOne(connection);
});

afterEach(async () => {
  await deps.outbox.stop();
  await bus.close();
  await store.close();
});

async function announced(n: number): Promise<string[]> {
  for (const deadline = Date.now() + 5000; seen.length < n && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 100)); // and nothing more
  return seen.map((e) => e.type);
}

describe("connection health", () => {
  it("a refused token turns the connection broken, announced once however many checks hit it", async () => {
    const refused = new ProviderError("unauthorized", "Gitea answered 401: token is invalid", undefined, 401);
    await Promise.all([1, 2, 3].map(() => recordProviderError(deps, connection, refused)));
    expect(await deps.repo.findConnection(connection.id)).toMatchObject({
      status: "broken",
      last_error: "Gitea answered 401: token is invalid",
      last_error_at: NOW.toISOString(),
    });
    expect(await announced(1)).toEqual([TOPICS.connectionBroken]);
    expect(seen[0]!.data).toEqual({
      organization_id: "org_1",
      connection_id: "conn_1",
      provider: "gitea",
      base_url: "https://git.acme.test",
      error_class: "unauthorized",
      at: NOW.toISOString(),
    });
    expect(JSON.stringify(seen)).not.toContain("sealed");
  });

  it("an outage records the last error only: the connection stays active, nothing is announced", async () => {
    await recordProviderError(deps, connection, new ProviderError("unavailable", "Gitea answered 503", undefined, 503));
    expect(await deps.repo.findConnection(connection.id)).toMatchObject({
      status: "active",
      last_error: "Gitea answered 503",
    });
    expect(await announced(0)).toEqual([]);
  });

  it("a call that works through a broken connection restores it, once; an active one announces nothing", async () => {
    await recordProviderWorks(deps, connection);
    await recordProviderError(
      deps,
      connection,
      new ProviderError("unauthorized", "Gitea answered 401", undefined, 401),
    );
    const broken = (await deps.repo.findConnection(connection.id))!;
    await Promise.all([recordProviderWorks(deps, broken), recordProviderWorks(deps, broken)]);
    expect((await deps.repo.findConnection(connection.id))!.status).toBe("active");
    expect(await announced(2)).toEqual([TOPICS.connectionBroken, TOPICS.connectionRestored]);
    expect(seen[1]!.data).not.toHaveProperty("error_class");
  });
});

describe("refreshTokenExpiry", () => {
  /** The provider's answers about the token, in turn (an Error: the provider failed). */
  function answering(...answers: (TokenExpiry | Error)[]) {
    const asked: (string | undefined)[] = [];
    deps.clientFor = ((_c: ConnectionRecord, hint?: { installationId?: string }) => ({
      tokenExpiry: () => {
        asked.push(hint?.installationId);
        const next = answers.shift()!;
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
    })) as unknown as IntegrationsDeps["clientFor"];
    return asked;
  }
  const stored = async () => {
    const c = (await deps.repo.c.connections.findOne({ id: connection.id }))!;
    return { kind: c.token_expiry, at: c.token_expires_at };
  };

  it("reads a renewed token's expiry after each check, through the event's installation, and keeps it when none is named", async () => {
    const asked = answering(
      { kind: "renewed", expiresAt: "2026-11-28T13:00:00Z" },
      { kind: "renewed", expiresAt: null },
      new ProviderError("unavailable", "GitHub answered 503"),
    );
    await refreshTokenExpiry(
      deps,
      { ...connection, token_expiry: "renewed", token_expires_at: null },
      {
        installationId: "7",
      },
    );
    expect(await stored()).toEqual({ kind: "renewed", at: "2026-11-28T13:00:00Z" });
    const now = (await deps.repo.c.connections.findOne({ id: connection.id }))!;
    await refreshTokenExpiry(deps, now, {});
    await refreshTokenExpiry(deps, now, { installationId: "7" });
    expect(await stored()).toEqual({ kind: "renewed", at: "2026-11-28T13:00:00Z" });
    expect(asked).toEqual(["7", undefined, "7"]);
  });

  it("reads a fixed token's expiry once: a connection made before it was read gets it at its next check", async () => {
    const asked = answering({ kind: "expires", expiresAt: "2027-03-31T00:00:00.000Z" });
    await refreshTokenExpiry(deps, connection, {});
    expect(await stored()).toEqual({ kind: "expires", at: "2027-03-31T00:00:00.000Z" });
    await refreshTokenExpiry(deps, (await deps.repo.c.connections.findOne({ id: connection.id }))!, {});
    expect(asked).toHaveLength(1);
  });
});
