// SCIM v2 provisioning (RFC 7643/7644) over real HTTP against the all-in-one process: tokens,
// the request sequences Okta and Entra ID send (their quirks as they send them), filters,
// pagination, attribute selection, ETags, organizations kept apart, and deactivation ending a
// person's session, OAuth token and API key at once.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { storedData } from "../support/atRest.js";
import { grantTokens } from "../support/oauth.js";
import { addMember, as, signIn, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const PASSWORD = "correct horse battery staple";
const REDIRECT = "http://localhost:8123/callback";

let v: Verdict;
let op: Api;
let acme: Api;
let globex: Api;
let acmeToken: string;
let globexToken: string;

interface ScimResponse {
  status: number;
  headers: Headers;
  body: any;
}

async function scim(
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ScimResponse> {
  const res = await fetch(`${v.url}/scim/v2${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/scim+json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (text) expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function expectScimError(res: ScimResponse, status: number, scimType?: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}) },
  });
  if (!scimType) expect(res.body.scimType).toBeUndefined();
}

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  const a = await op.post("/v1/organizations", { name: "Acme", plan: "business" });
  const g = await op.post("/v1/organizations", { name: "Globex", plan: "enterprise" });
  acme = op.withKey(a.body.api_key.key);
  globex = op.withKey(g.body.api_key.key);
  acmeToken = (await acme.post("/v1/scim-tokens", { name: "Okta" })).body.token;
  globexToken = (await globex.post("/v1/scim-tokens", { name: "Entra ID" })).body.token;
});
afterAll(async () => v.destroy());

describe("SCIM tokens", () => {
  it("are shown once, stored as hashes, listed without values, audited, and stop working when deleted", async () => {
    const created = await acme.post("/v1/scim-tokens", { name: "Rotation", expiration: "90d" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^sct_[0-9a-z]{26}$/),
      name: "Rotation",
      prefix: created.body.token.slice(0, 13),
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
      token: expect.stringMatching(/^vdt_scim_[0-9A-Za-z]{38}$/),
    });
    const token: string = created.body.token;
    expect((await scim(token, "GET", "/Users")).status).toBe(200);
    const listed = await acme.get("/v1/scim-tokens");
    expect(listed.status).toBe(200);
    expect(listed.body.scim_tokens).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.body.id, last_used_at: expect.any(String) })]),
    );
    expect(listed.text).not.toContain(token);
    expect(v.output()).not.toContain(token);
    // What someone holding the instance's storage reads: the token's record, never its value.
    const stored = await storedData(v);
    expect(stored.some((s) => s.bytes.includes(Buffer.from(created.body.id)))).toBe(true);
    for (const { where, bytes } of stored)
      expect({ where, found: bytes.includes(Buffer.from(token)) }).toEqual({ where, found: false });
    const events = await acme.get("/v1/audit-events", { query: { type: "scim_token.created" } });
    expect(events.body.audit_events).toEqual(
      expect.arrayContaining([expect.objectContaining({ target: { type: "scim_token", id: created.body.id } })]),
    );
    expect(events.text).not.toContain(token);

    expect((await acme.delete(`/v1/scim-tokens/${created.body.id}`)).status).toBe(204);
    expectScimError(await scim(token, "GET", "/Users"), 401);
    expect(
      (await acme.get("/v1/audit-events", { query: { type: "scim_token.deleted" } })).body.audit_events,
    ).toHaveLength(1);
  });

  it("are for admins on the Business and Enterprise plans", async () => {
    const team = await op.post("/v1/organizations", { name: "Initech", plan: "team" });
    const initech = op.withKey(team.body.api_key.key);
    const refused = await initech.post("/v1/scim-tokens", { name: "Okta" });
    expectError(refused, 403, "forbidden", "AUTH_ORG_ACCESS_DENIED");
    expect(refused.body.details).toMatchObject({ plan: "team", required_plans: ["business", "enterprise"] });
    const reader = await acme.post("/v1/api-keys", { name: "reader", scopes: ["read:org"], expiration: "24h" });
    expectError(
      await acme.withKey(reader.body.key).get("/v1/scim-tokens"),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
  });

  it("is the only credential /scim/v2 takes, and answers in SCIM's error format", async () => {
    expectScimError(await scim(null, "GET", "/Users"), 401);
    expectScimError(await scim(v.bootstrapKey, "GET", "/Users"), 401);
    expectScimError(
      await scim(`${acmeToken.slice(0, -1)}${acmeToken.endsWith("x") ? "y" : "x"}`, "GET", "/Users"),
      401,
    );
    // and a SCIM token is no API key
    expectError(await acme.withKey(acmeToken).get("/v1/organization"), 401, "unauthorized", "AUTH_INVALID_KEY");
  });
});

describe("discovery", () => {
  it("serves ServiceProviderConfig, ResourceTypes and Schemas, GET only", async () => {
    const spc = await scim(acmeToken, "GET", "/ServiceProviderConfig");
    expect(spc.status).toBe(200);
    expect(spc.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      etag: { supported: true },
    });
    const types = await scim(acmeToken, "GET", "/ResourceTypes");
    expect(types.body).toMatchObject({ schemas: [LIST], totalResults: 2 });
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(["User", "Group"]);
    const schemas = await scim(acmeToken, "GET", "/Schemas");
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([USER, ENTERPRISE, GROUP]);
    expect((await scim(acmeToken, "GET", `/Schemas/${USER}`)).body.attributes).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "userName", required: true, uniqueness: "server" })]),
    );
    expectScimError(await scim(acmeToken, "POST", "/ServiceProviderConfig", {}), 405);
    expectScimError(await scim(acmeToken, "GET", "/Nothing"), 404);
  });
});

describe("Okta's request sequence", () => {
  let id: string;

  it("looks the user up, creates them, reads them back, and deactivates with a PATCH without path", async () => {
    const lookup = await scim(
      acmeToken,
      "GET",
      `/Users?filter=${encodeURIComponent('userName eq "ann@acme.test"')}&startIndex=1&count=100`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await scim(acmeToken, "POST", "/Users", {
      schemas: [USER],
      userName: "ann@acme.test",
      name: { givenName: "Ann", familyName: "Lee" },
      emails: [{ primary: true, value: "ann@acme.test", type: "work" }],
      displayName: "Ann Lee",
      locale: "en-US",
      externalId: "00u1okta",
      groups: [],
      password: "Okta-sends-one-when-configured-1",
      active: true,
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(id).toMatch(/^user_/);
    expect(created.headers.get("location")).toBe(`${v.url}/scim/v2/Users/${id}`);
    expect(created.headers.get("etag")).toBe('W/"1"');
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: "ann@acme.test",
      externalId: "00u1okta",
      active: true,
      meta: { resourceType: "User", version: 'W/"1"', location: `${v.url}/scim/v2/Users/${id}` },
    });
    expect(JSON.stringify(created.body)).not.toContain("Okta-sends-one");
    // the person is a member of Acme now, with the default role
    const members = await acme.get("/v1/members");
    expect(members.body.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, email: "ann@acme.test", role: "member", status: "active" }),
      ]),
    );
    expectScimError(
      await scim(acmeToken, "POST", "/Users", { schemas: [USER], userName: "ANN@acme.test" }),
      409,
      "uniqueness",
    );

    const read = await scim(acmeToken, "GET", `/Users/${id}`);
    expect(read.body).toMatchObject({ id, name: { givenName: "Ann", familyName: "Lee" } });

    const off = await scim(acmeToken, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false, meta: { version: 'W/"2"' } });
    expect((await acme.get("/v1/members")).body.members.map((m: { id: string }) => m.id)).not.toContain(id);
  });

  it("reactivates with PUT, and pushes a group that gives its members a role", async () => {
    const put = await scim(acmeToken, "PUT", `/Users/${id}`, {
      schemas: [USER],
      id,
      userName: "ann@acme.test",
      name: { givenName: "Ann", familyName: "Lee-Smith" },
      emails: [{ primary: true, value: "ann@acme.test", type: "work" }],
      active: true,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ active: true, name: { familyName: "Lee-Smith" } });
    expect(put.body.externalId).toBeUndefined();

    const group = await scim(acmeToken, "POST", "/Groups", {
      schemas: [GROUP],
      displayName: "verdict-admins",
      members: [],
    });
    expect(group.status).toBe(201);
    const gid: string = group.body.id;
    const added = await scim(acmeToken, "PATCH", `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "add", path: "members", value: [{ value: id, display: "ann@acme.test" }] }],
    });
    expect(added.status).toBe(200);
    expect(added.body.members).toEqual([expect.objectContaining({ value: id })]);
    const roleOf = async () =>
      (await acme.get("/v1/members")).body.members.find((m: { id: string }) => m.id === id)?.role as string;
    expect(await roleOf()).toBe("admin");
    expect((await scim(acmeToken, "GET", `/Users/${id}`)).body.groups).toEqual([
      expect.objectContaining({ value: gid, display: "verdict-admins" }),
    ]);
    const removed = await scim(acmeToken, "PATCH", `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "remove", path: `members[value eq "${id}"]` }],
    });
    expect(removed.body.members).toEqual([]);
    expect(await roleOf()).toBe("member");
  });
});

describe("Entra ID's request sequence", () => {
  it("creates with the enterprise extension, then patches with capitalised ops, string booleans and filtered paths", async () => {
    const lookup = await scim(globexToken, "GET", `/Users?filter=${encodeURIComponent("userName eq 'x'")}`);
    expectScimError(lookup, 400, "invalidFilter");
    const created = await scim(globexToken, "POST", "/Users", {
      schemas: [USER, ENTERPRISE],
      externalId: "4b1c-entra",
      userName: "bo@globex.test",
      active: true,
      displayName: "Bo Chen",
      emails: [{ primary: true, type: "work", value: "bo@globex.test" }],
      name: { formatted: "Bo Chen", familyName: "Chen", givenName: "Bo" },
      [ENTERPRISE]: { department: "Security", employeeNumber: 42 },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(created.body.schemas).toEqual([USER, ENTERPRISE]);
    expect(created.body[ENTERPRISE]).toEqual({ department: "Security", employeeNumber: "42" });

    const byExternal = await scim(
      globexToken,
      "GET",
      `/Users?filter=${encodeURIComponent('externalId eq "4b1c-entra"')}`,
    );
    expect(byExternal.body.totalResults).toBe(1);

    const patched = await scim(globexToken, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "bo.chen@globex.test" },
        { op: "Add", path: 'phoneNumbers[type eq "mobile"].value', value: "+1 555 0100" },
        { op: "Replace", path: `${ENTERPRISE}:department`, value: "Platform" },
        { op: "Add", path: "name.givenName", value: "Bob" },
        { op: "Replace", path: "displayName", value: "Bob Chen" },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      emails: [{ type: "work", value: "bo.chen@globex.test", primary: true }],
      phoneNumbers: [{ type: "mobile", value: "+1 555 0100" }],
      name: { givenName: "Bob", familyName: "Chen" },
      displayName: "Bob Chen",
      [ENTERPRISE]: { department: "Platform" },
    });

    const group = await scim(globexToken, "POST", "/Groups", {
      schemas: [GROUP],
      externalId: "g-1",
      displayName: "verdict-viewers",
    });
    const gid: string = group.body.id;
    const listed = await scim(
      globexToken,
      "GET",
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "verdict-viewers"')}`,
    );
    expect(listed.body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    expect(listed.body.Resources[0]).toMatchObject({ id: gid, displayName: "verdict-viewers", externalId: "g-1" });
    await scim(globexToken, "PATCH", `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Add", path: "members", value: [{ value: id }] }],
    });
    const role = async () =>
      (await globex.get("/v1/members")).body.members.find((m: { id: string }) => m.id === id)?.role as
        string | undefined;
    expect(await role()).toBe("viewer");
    await scim(globexToken, "PATCH", `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Remove", path: "members", value: [{ value: id }] }],
    });
    expect(await role()).toBe("member");

    const disabled = await scim(globexToken, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disabled.body.active).toBe(false);
    expect(await role()).toBeUndefined();
    expect((await scim(globexToken, "DELETE", `/Users/${id}`)).status).toBe(204);
    expectScimError(await scim(globexToken, "GET", `/Users/${id}`), 404);
  });
});

describe("queries", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (const [n, dept] of [
      ["carol", "Sales"],
      ["dave", "Security"],
      ["erin", "Security"],
    ] as const) {
      const r = await scim(acmeToken, "POST", "/Users", {
        schemas: [USER],
        userName: `${n}@acme.test`,
        externalId: `ext-${n}`,
        emails: [{ value: `${n}@mail.acme.test`, type: "work" }],
        title: dept,
      });
      ids.push(r.body.id);
    }
  });
  const names = (r: ScimResponse) => r.body.Resources.map((u: { userName: string }) => u.userName).sort();
  const find = (filter: string, extra = "") =>
    scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent(filter)}${extra}`);

  it("filters with eq, co, sw, and, or, not and value paths", async () => {
    expect(names(await find('userName eq "CAROL@acme.test"'))).toEqual(["carol@acme.test"]);
    expect(names(await find('emails.value eq "dave@mail.acme.test"'))).toEqual(["dave@acme.test"]);
    expect(names(await find('externalId eq "ext-erin"'))).toEqual(["erin@acme.test"]);
    expect((await find('externalId eq "EXT-ERIN"')).body.totalResults).toBe(0);
    expect(names(await find('userName sw "d" or userName co "rin"'))).toEqual(["dave@acme.test", "erin@acme.test"]);
    expect(names(await find('title eq "Security" and not (userName sw "e")'))).toEqual(["dave@acme.test"]);
    expect(names(await find('emails[type eq "work" and value ew "mail.acme.test"] and userName sw "c"'))).toEqual([
      "carol@acme.test",
    ]);
    expect(
      names(await find('meta.created gt "2000-01-01T00:00:00Z" and userName ew "@acme.test" and title pr')),
    ).toEqual(["carol@acme.test", "dave@acme.test", "erin@acme.test"]);
  });

  it("pages with startIndex and count", async () => {
    const page = await find('userName ew "@acme.test" and title pr', "&startIndex=2&count=1");
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0].id).toBe(ids[1]);
    const none = await find("title pr", "&count=0");
    expect(none.body).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
  });

  it("returns only the attributes asked for, or all but the excluded ones", async () => {
    const only = await scim(acmeToken, "GET", `/Users/${ids[0]}?attributes=userName,name.givenName`);
    expect(Object.keys(only.body).sort()).toEqual(["id", "schemas", "userName"]);
    const without = await scim(acmeToken, "GET", `/Users/${ids[0]}?excludedAttributes=emails,meta`);
    expect(without.body).toMatchObject({ id: ids[0], userName: "carol@acme.test", title: "Sales" });
    expect(without.body.emails).toBeUndefined();
    expect(without.body.meta).toBeUndefined();
    const searched = await scim(acmeToken, "POST", "/Users/.search", {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
      filter: 'userName eq "dave@acme.test"',
      attributes: ["userName"],
    });
    expect(searched.body.Resources).toEqual([{ schemas: [USER], id: ids[1], userName: "dave@acme.test" }]);
  });

  it("refuses a change made against an old version with 412, and answers 304 to a current If-None-Match", async () => {
    const read = await scim(acmeToken, "GET", `/Users/${ids[2]}`);
    const etag = read.headers.get("etag")!;
    const body = { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "CISO" }] };
    expect((await scim(acmeToken, "PATCH", `/Users/${ids[2]}`, body, { "if-match": etag })).status).toBe(200);
    expectScimError(await scim(acmeToken, "PATCH", `/Users/${ids[2]}`, body, { "if-match": etag }), 412);
    expectScimError(await scim(acmeToken, "DELETE", `/Users/${ids[2]}`, undefined, { "if-match": etag }), 412);
    const now = await scim(acmeToken, "GET", `/Users/${ids[2]}`);
    expect(now.body.title).toBe("CISO");
    expect(
      (await scim(acmeToken, "GET", `/Users/${ids[2]}`, undefined, { "if-none-match": now.headers.get("etag")! }))
        .status,
    ).toBe(304);
  });

  it.each([
    ["a comparison without a value", "userName eq"],
    ["an unterminated string", 'userName eq "unterminated'],
    ["an unknown operator", 'userName xx "a"'],
    ["an unquoted string", "userName eq bare"],
    ["an unclosed parenthesis", '(userName eq "a"'],
    ["a stray parenthesis", 'userName eq "a")'],
    ["an unclosed value filter", 'emails[type eq "work"'],
    ["an ordering on a boolean", "active gt true"],
    ["a lone keyword", "and"],
    ["a character outside the grammar", "é"],
    ["not without parentheses", 'not userName eq "a"'],
    ["200 nested parentheses", "(".repeat(200) + 'userName eq "a"' + ")".repeat(200)],
    ["5000 characters", "x".repeat(5000)],
    ["a dangling and", 'userName eq "a" and'],
  ])("answers 400 invalidFilter to %s, never a 500", async (_label, filter) => {
    expectScimError(await find(filter), 400, "invalidFilter");
    expectScimError(await scim(acmeToken, "POST", "/Users/.search", { filter }), 400, "invalidFilter");
  });

  it("answers bad bodies and paths with SCIM's error types", async () => {
    expectScimError(await scim(acmeToken, "POST", "/Users", "{not json"), 400, "invalidSyntax");
    expectScimError(await scim(acmeToken, "POST", "/Users", { schemas: [USER] }), 400, "invalidValue");
    expectScimError(
      await scim(acmeToken, "POST", "/Users", { userName: "x@acme.test", active: "maybe" }),
      400,
      "invalidValue",
    );
    const patch = (Operations: unknown) =>
      scim(acmeToken, "PATCH", `/Users/${ids[0]}`, { schemas: [PATCH_OP], Operations });
    expectScimError(await patch([{ op: "move", path: "title", value: "x" }]), 400, "invalidSyntax");
    expectScimError(await patch([{ op: "replace", path: "nosuch", value: "x" }]), 400, "invalidPath");
    expectScimError(await patch([{ op: "replace", path: 'emails[type eq "work"', value: "x" }]), 400, "invalidPath");
    expectScimError(await patch([{ op: "remove" }]), 400, "noTarget");
    expectScimError(await patch([{ op: "replace", path: "id", value: "user_x" }]), 400, "mutability");
    expectScimError(await scim(acmeToken, "GET", "/Users/user_doesnotexist"), 404);
  });
});

describe("organizations", () => {
  it("never see or change each other's users and groups", async () => {
    const mine = await scim(acmeToken, "POST", "/Users", { schemas: [USER], userName: "frank@acme.test" });
    const id: string = mine.body.id;
    const group = await scim(acmeToken, "POST", "/Groups", {
      schemas: [GROUP],
      displayName: "acme-only",
      members: [{ value: id }],
    });
    const theirs = await scim(globexToken, "GET", "/Users?count=200");
    expect(theirs.body.Resources.map((u: { id: string }) => u.id)).not.toContain(id);
    expect(
      (await scim(globexToken, "GET", `/Users?filter=${encodeURIComponent('userName eq "frank@acme.test"')}`)).body
        .totalResults,
    ).toBe(0);
    expectScimError(await scim(globexToken, "GET", `/Users/${id}`), 404);
    expectScimError(
      await scim(globexToken, "PATCH", `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { active: false } }],
      }),
      404,
    );
    expectScimError(
      await scim(globexToken, "PUT", `/Users/${id}`, { schemas: [USER], userName: "evil@globex.test" }),
      404,
    );
    expectScimError(await scim(globexToken, "DELETE", `/Users/${id}`), 404);
    expectScimError(await scim(globexToken, "GET", `/Groups/${group.body.id}`), 404);
    expectScimError(await scim(globexToken, "DELETE", `/Groups/${group.body.id}`), 404);
    // nor put another organization's user in their own group
    expectScimError(
      await scim(globexToken, "POST", "/Groups", { schemas: [GROUP], displayName: "x", members: [{ value: id }] }),
      400,
      "invalidValue",
    );
    const after = await scim(acmeToken, "GET", `/Users/${id}`);
    expect(after.body).toMatchObject({ userName: "frank@acme.test", active: true, meta: { version: 'W/"1"' } });
    expect((await acme.get("/v1/members")).body.members.map((m: { id: string }) => m.id)).toContain(id);
  });
});

describe("deactivation", () => {
  let person: Person;
  let apiKey: string;
  let accessToken: string;

  beforeAll(async () => {
    // Someone who already has a password (invited before the identity provider took over).
    // An admin, so she can make an API key; her identity provider then manages her role.
    await addMember(acme, "gina@acme.test", "admin", PASSWORD);
    person = await signIn(acme, "gina@acme.test", PASSWORD);
    const key = await acme.post(
      "/v1/api-keys",
      { name: "gina's laptop", scopes: ["read:org"], expiration: "24h" },
      as(person),
    );
    expect(key.status).toBe(201);
    apiKey = key.body.key;
    const client = await acme.post("/v1/oauth-clients", {
      name: "Dashboard",
      redirect_uris: [REDIRECT],
      scopes: ["read:org"],
    });
    const { tokens } = await grantTokens({
      baseUrl: v.url,
      client: client.body,
      cookie: person.cookie,
      redirect: REDIRECT,
      scope: "read:org",
    });
    accessToken = tokens.access_token;
  });

  it("ends the person's session, OAuth token and API key at once", async () => {
    const provisioned = await scim(acmeToken, "POST", "/Users", {
      schemas: [USER],
      userName: "gina@acme.test",
      emails: [{ value: "gina@acme.test", primary: true }],
    });
    expect(provisioned.status).toBe(201);
    const id: string = provisioned.body.id;
    const viaSession = () => acme.get("/v1/organization", as(person));
    const viaKey = () => acme.withKey(apiKey).get("/v1/organization");
    const viaOAuth = () => acme.withKey(accessToken).get("/v1/organization");
    expect((await viaSession()).status).toBe(200);
    expect((await viaKey()).status).toBe(200);
    expect((await viaOAuth()).status).toBe(200);

    const off = await scim(acmeToken, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(off.status).toBe(200);
    expect((await viaSession()).status).toBe(401);
    expect((await viaKey()).status).toBe(401);
    expect((await viaOAuth()).status).toBe(401);
    const events = await acme.get("/v1/audit-events", { query: { type: "scim.user_deactivated" } });
    expect(events.body.audit_events[0]).toMatchObject({
      target: { type: "user", id },
      data: { sessions_ended: 1, api_keys_revoked: 1 },
    });
    // and signing in again does not bring them back
    const again = await acme.post("/auth/login", { email: "gina@acme.test", password: PASSWORD }, { key: null });
    expect(again.status).not.toBe(200);
  });
});
