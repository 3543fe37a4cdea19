// SCIM lists answered by the store: the lookups identity providers send on every sync
// (`userName eq`, `externalId eq`, `displayName eq`) and startIndex/count pages read what they
// answer, not every member of the organization. The embedded store, with a wrapper that counts
// the documents each collection hands back (what a list costs), around the real SQLite adapter.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { InProcessBus } from "@verdict/bus";
import { createLogger, Egress, SecretBox } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore, type Collection, type Doc, type Store } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import { argon2Passwords } from "../../passwords.js";
import { IDENTITY_COLLECTIONS } from "../../repos/collections.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import { createOrganization } from "../organizations/createOrganization.js";
import { OidcDiscoveryCache } from "../sso/oidcDiscovery.js";
import { openIdentityRepos } from "../../repos/index.js";
import { handleScim, type ScimHttpResponse } from "./handleScim.js";
import { createScimToken } from "./createScimToken.js";

// Nothing here reaches an IdP: a guard that lets no private address through.
const egress = new Egress({ allowPrivate: false });

/** The real store, counting the documents find/findOne return per collection. */
class CountingStore implements Store {
  readonly read = new Map<string, number>();
  constructor(private readonly inner: Store) {}
  collection<T extends Doc>(name: string): Collection<T> {
    const c = this.inner.collection<T>(name);
    const add = (n: number) => this.read.set(name, (this.read.get(name) ?? 0) + n);
    return {
      ensureIndexes: (s) => c.ensureIndexes(s),
      insertOne: (d) => c.insertOne(d),
      findOne: async (f) => {
        const d = await c.findOne(f);
        add(d ? 1 : 0);
        return d;
      },
      find: async (f, o) => {
        const ds = await c.find(f, o);
        add(ds.length);
        return ds;
      },
      count: (f) => c.count(f),
      updateOne: (f, s, u) => c.updateOne(f, s, u),
      deleteOne: (f) => c.deleteOne(f),
      deleteMany: (f) => c.deleteMany(f),
      group: (f, g) => c.group(f, g),
    };
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

const USERS = 60;
let store: CountingStore;
let bus: InProcessBus;
let deps: IdentityDeps;
let token: string;

beforeEach(async () => {
  store = new CountingStore(new SqliteStore(":memory:"));
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  const outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  const repos = await openIdentityRepos(store, outbox);
  deps = {
    ...repos,
    bus,
    outbox,
    clock: { now: () => new Date() },
    logger: createLogger("t", "silent"),
    policy: { countRepositories: async () => ({ count: 0 }) },
    passwords: argon2Passwords(),
    totpBox: new SecretBox(randomBytes(32)),
    oauthServerSecret: randomBytes(32),
    oidcDiscovery: new OidcDiscoveryCache(0, egress),
    egress,
    sessionPolicy: { idleMs: 30 * 60_000, absoluteMs: 2 * 3_600_000 },
  };
  const { org } = await createOrganization(deps, { name: "Acme", plan: "enterprise" });
  token = (
    await createScimToken(deps, {
      organizationId: org.id,
      name: "idp",
      expiration: "never",
      actor: { type: "system", id: "test", ip: "" },
    })
  ).token;
  // Users without an email address: no Verdict account work, just SCIM records.
  for (let i = 0; i < USERS; i++)
    expect(
      (
        await scim("POST", "/Users", {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
          userName: `Person${String(i).padStart(2, "0")}`,
          externalId: `ext-${i}`,
        })
      ).status,
    ).toBe(201);
  expect(
    (
      await scim("POST", "/Groups", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: "Verdict-Viewers",
        externalId: "grp-ext-1",
      })
    ).status,
  ).toBe(201);
  store.read.clear();
});
afterEach(async () => {
  await bus.close();
  await store.close();
});

function scim(method: string, path: string, body?: unknown, query: Record<string, string> = {}) {
  return handleScim(deps, {
    token,
    method,
    path,
    query,
    bodyJson: body === undefined ? "" : JSON.stringify(body),
    ifMatch: "",
    ifNoneMatch: "",
    baseUrl: "https://verdict.example.com/scim/v2",
    clientIp: "203.0.113.1",
  });
}

type List = { totalResults: number; startIndex: number; itemsPerPage: number; Resources: Record<string, unknown>[] };
const list = (r: ScimHttpResponse) => {
  expect(r.status).toBe(200);
  return r.body as List;
};
const usersRead = () => store.read.get(IDENTITY_COLLECTIONS.scimUsers) ?? 0;

describe("SCIM lists in the store", () => {
  it("finds a userName (any case) by reading that one user", async () => {
    const res = list(await scim("GET", "/Users", undefined, { filter: 'userName eq "person42"' }));
    expect(res.totalResults).toBe(1);
    expect(res.Resources.map((r) => r.userName)).toEqual(["Person42"]);
    expect(usersRead()).toBe(1);
  });

  it("finds an externalId (case-exact) by reading that one user, and nothing for another case", async () => {
    expect(
      list(await scim("GET", "/Users", undefined, { filter: 'externalId eq "ext-7"' })).Resources.map(
        (r) => r.userName,
      ),
    ).toEqual(["Person07"]);
    expect(list(await scim("GET", "/Users", undefined, { filter: 'externalId eq "EXT-7"' })).totalResults).toBe(0);
    expect(usersRead()).toBe(1);
  });

  it("answers an `and` of indexed equalities in the store, and one that cannot hold without reading", async () => {
    const both = list(
      await scim("GET", "/Users", undefined, { filter: 'userName eq "Person03" and externalId eq "ext-3"' }),
    );
    expect(both.Resources.map((r) => r.userName)).toEqual(["Person03"]);
    expect(
      list(await scim("GET", "/Users", undefined, { filter: 'userName eq "Person03" and userName eq "Person04"' }))
        .totalResults,
    ).toBe(0);
    expect(usersRead()).toBe(1);
  });

  it("pages in creation order by reading one page", async () => {
    const page = list(await scim("GET", "/Users", undefined, { startIndex: "21", count: "10" }));
    expect(page).toMatchObject({ totalResults: USERS, startIndex: 21, itemsPerPage: 10 });
    expect(page.Resources.map((r) => r.userName)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Person${String(20 + i).padStart(2, "0")}`),
    );
    expect(usersRead()).toBe(10);
    // Past the end, and count=0: the total alone.
    expect(list(await scim("GET", "/Users", undefined, { startIndex: "61" }))).toMatchObject({
      totalResults: USERS,
      itemsPerPage: 0,
    });
    expect(list(await scim("GET", "/Users", undefined, { count: "0" }))).toMatchObject({
      totalResults: USERS,
      itemsPerPage: 0,
    });
    expect(usersRead()).toBe(10);
  });

  it("narrows by the indexed part and filters the rest here; other filters still work over everyone", async () => {
    const narrowed = list(
      await scim("POST", "/Users/.search", { filter: 'userName eq "Person05" and active eq true' }),
    );
    expect(narrowed.Resources.map((r) => r.userName)).toEqual(["Person05"]);
    expect(usersRead()).toBe(1);
    const broad = list(await scim("GET", "/Users", undefined, { filter: 'userName sw "Person1"', count: "3" }));
    expect(broad).toMatchObject({ totalResults: 10, itemsPerPage: 3 });
    expect(broad.Resources.map((r) => r.userName)).toEqual(["Person10", "Person11", "Person12"]);
  });

  it("finds a group by displayName (any case) or externalId", async () => {
    for (const filter of ['displayName eq "verdict-viewers"', 'externalId eq "grp-ext-1"'])
      expect(list(await scim("GET", "/Groups", undefined, { filter })).Resources.map((r) => r.displayName)).toEqual([
        "Verdict-Viewers",
      ]);
    expect(list(await scim("GET", "/Groups", undefined, { filter: 'displayName eq "other"' })).totalResults).toBe(0);
    // A group's view reads only its members: this one has none.
    expect(usersRead()).toBe(0);
  });
});

describe("records stored before the lookup keys", () => {
  it("get them when the repository starts, so filters find them", async () => {
    // As an earlier version stored it: no external_id (written past the repository, which keeps
    // records in today's shape).
    const users = store.collection<ScimUserRecord>(IDENTITY_COLLECTIONS.scimUsers);
    const [u] = await users.find({ user_name_key: "person09" });
    await users.updateOne({ id: u!.id }, {}, ["external_id"]);
    expect(list(await scim("GET", "/Users", undefined, { filter: 'externalId eq "ext-9"' })).totalResults).toBe(0);
    await openIdentityRepos(store, deps.outbox);
    expect(
      list(await scim("GET", "/Users", undefined, { filter: 'externalId eq "ext-9"' })).Resources.map(
        (r) => r.userName,
      ),
    ).toEqual(["Person09"]);
  });
});
