import { describe, expect, it } from "@jest/globals";
import { generateScimToken, ifMatchHolds, pageOf, roleFromGroups, scimTokenWellFormed } from "./scim.js";
import { ScimError } from "./scimError.js";
import { matches, parseFilter, parsePatchPath } from "./scimFilter.js";
import { applyPatch, patchOperations } from "./scimPatch.js";
import {
  caseExact,
  ENTERPRISE_USER_SCHEMA,
  normalizeResource,
  project,
  USER_RESOURCE,
  USER_SCHEMA,
} from "./scimSchema.js";

const ctx = { coreSchema: USER_SCHEMA, caseExact: (p: Parameters<typeof caseExact>[1]) => caseExact(USER_RESOURCE, p) };
const ann = {
  id: "user_1",
  userName: "Ann@Acme.test",
  externalId: "Ext-1",
  active: true,
  title: "CISO",
  emails: [
    { value: "ann@acme.test", type: "work", primary: true },
    { value: "ann@home.test", type: "home" },
  ],
  [ENTERPRISE_USER_SCHEMA]: { department: "Security" },
  meta: { created: "2026-01-02T00:00:00Z" },
};
const hit = (f: string) => matches(ann, parseFilter(f), ctx);

function scimTypeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ScimError);
    return (err as ScimError).scimType;
  }
  throw new Error("did not throw");
}

describe("filters", () => {
  it.each([
    ['userName eq "ann@acme.test"', true],
    ['USERNAME Eq "ANN@ACME.TEST"', true],
    ['externalId eq "ext-1"', false],
    ['externalId eq "Ext-1"', true],
    ['emails.value eq "ann@home.test"', true],
    ['emails[type eq "home" and value sw "ann@"]', true],
    ['emails[type eq "work" and value co "home"]', false],
    ['active eq true and not (title eq "CEO")', true],
    ['title eq "CEO" or userName ew "acme.test"', true],
    ["nickName pr", false],
    ["nickName eq null", true],
    [`${ENTERPRISE_USER_SCHEMA}:department eq "security"`, true],
    [`${USER_SCHEMA}:title sw "ci"`, true],
    ['meta.created gt "2026-01-01T00:00:00Z"', true],
    ['userName ne "ann@acme.test"', false],
  ])("%s → %s", (f, expected) => expect(hit(f)).toBe(expected));

  it.each(["", "userName", 'userName eq "a" or', "(", 'a eq "b" c', '"x"', "userName eq 'a'", "a[b eq 1"])(
    "refuses %j as invalidFilter",
    (f) => expect(scimTypeOf(() => parseFilter(f))).toBe("invalidFilter"),
  );

  it("reads JSON escapes in values, and refuses what the grammar has no form for", () => {
    expect(parseFilter('userName eq "ann\\u0040acme.test"')).toMatchObject({ value: "ann@acme.test" });
    expect(hit('userName eq "ann\\u0040acme.test"')).toBe(true);
    expect(scimTypeOf(() => parseFilter("not active eq true"))).toBe("invalidFilter");
    expect(scimTypeOf(() => parseFilter('emails[type eq "work"].value eq "x"'))).toBe("invalidFilter");
  });

  it("refuses an unterminated value full of line breaks at once (a parser that backtracks takes hours: docs/scim.md)", () => {
    const filter = 'userName eq "' + "\n".repeat(4000);
    expect(scimTypeOf(() => parseFilter(filter))).toBe("invalidFilter");
  });

  it("bounds nesting, so a deep filter is refused, not a stack overflow", () => {
    expect(scimTypeOf(() => parseFilter("(".repeat(2000) + 'a eq "b"' + ")".repeat(2000)))).toBe("invalidFilter");
  });

  it("reads PATCH paths with value filters and sub-attributes", () => {
    expect(parsePatchPath('emails[type eq "work"].value')).toMatchObject({
      attr: "emails",
      sub: "value",
      filter: { op: "eq" },
    });
    expect(parsePatchPath(`${ENTERPRISE_USER_SCHEMA}:manager.value`)).toEqual({
      schema: ENTERPRISE_USER_SCHEMA,
      attr: "manager",
      sub: "value",
    });
    expect(scimTypeOf(() => parsePatchPath("emails[type eq"))).toBe("invalidPath");
  });
});

describe("normalisation", () => {
  it("makes names canonical, coerces Entra's string booleans, drops read-only and unknown attributes", () => {
    expect(
      normalizeResource(USER_RESOURCE, {
        USERNAME: "a@b.c",
        Active: "False",
        groups: [{ value: "grp_1" }],
        id: "user_x",
        shoeSize: 9,
        emails: { value: "a@b.c", primary: "True" },
      }),
    ).toEqual({ userName: "a@b.c", active: false, emails: [{ value: "a@b.c", primary: true }] });
    expect(scimTypeOf(() => normalizeResource(USER_RESOURCE, { userName: "a", active: "perhaps" }))).toBe(
      "invalidValue",
    );
  });

  it("projects attributes and excludedAttributes, keeping id and schemas", () => {
    const view = { schemas: [USER_SCHEMA], ...ann };
    expect(Object.keys(project(USER_RESOURCE, view, "userName,emails.value", undefined))).toEqual([
      "schemas",
      "id",
      "userName",
      "emails",
    ]);
    expect(project(USER_RESOURCE, view, "emails.value", undefined).emails).toEqual([
      { value: "ann@acme.test" },
      { value: "ann@home.test" },
    ]);
    const without = project(USER_RESOURCE, view, undefined, `emails,id,${ENTERPRISE_USER_SCHEMA}`);
    expect(without.emails).toBeUndefined();
    expect(without.id).toBe("user_1");
    expect(without[ENTERPRISE_USER_SCHEMA]).toBeUndefined();
  });
});

describe("PATCH", () => {
  const base = normalizeResource(USER_RESOURCE, ann);
  const patch = (Operations: unknown[]) => applyPatch(USER_RESOURCE, base, patchOperations({ Operations }));

  it("takes Okta's value object without a path and Entra's capitalised ops", () => {
    expect(patch([{ op: "replace", value: { active: false, "name.givenName": "Ann" } }])).toMatchObject({
      active: false,
      name: { givenName: "Ann" },
    });
    expect(patch([{ op: "Replace", path: "active", value: "False" }]).active).toBe(false);
  });

  it("changes, creates and removes values through filtered paths", () => {
    expect(patch([{ op: "replace", path: 'emails[type eq "work"].value', value: "new@acme.test" }]).emails).toEqual([
      { value: "new@acme.test", type: "work", primary: true },
      { value: "ann@home.test", type: "home" },
    ]);
    expect(patch([{ op: "add", path: 'phoneNumbers[type eq "mobile"].value', value: "+1" }]).phoneNumbers).toEqual([
      { type: "mobile", value: "+1" },
    ]);
    expect(patch([{ op: "remove", path: 'emails[type eq "home"]' }]).emails).toEqual([
      { value: "ann@acme.test", type: "work", primary: true },
    ]);
    expect(patch([{ op: "remove", path: "emails", value: [{ value: "ann@acme.test" }] }]).emails).toEqual([
      { value: "ann@home.test", type: "home" },
    ]);
    // Attribute names are case-insensitive (RFC 7643 §2.1): the same emails, not a second attribute.
    const upper = patch([{ op: "replace", path: 'EMAILS[TYPE eq "WORK"].VALUE', value: "new@acme.test" }]);
    expect(upper.emails).toEqual([
      { value: "new@acme.test", type: "work", primary: true },
      { value: "ann@home.test", type: "home" },
    ]);
    expect(Object.keys(upper).filter((k) => k.toLowerCase() === "emails")).toEqual(["emails"]);
    expect(
      patch([{ op: "add", path: `${ENTERPRISE_USER_SCHEMA}:costCenter`, value: "42" }])[ENTERPRISE_USER_SCHEMA],
    ).toEqual({
      department: "Security",
      costCenter: "42",
    });
  });

  it("refuses what RFC 7644 refuses, with its scimType", () => {
    expect(scimTypeOf(() => patch([{ op: "remove" }]))).toBe("noTarget");
    expect(scimTypeOf(() => patch([{ op: "move", path: "title" }]))).toBe("invalidSyntax");
    expect(scimTypeOf(() => patch([{ op: "replace", path: "id", value: "x" }]))).toBe("mutability");
    expect(scimTypeOf(() => patch([{ op: "replace", path: "nope", value: "x" }]))).toBe("invalidPath");
    expect(scimTypeOf(() => patch([{ op: "remove", path: "userName" }]))).toBe("invalidValue");
    expect(scimTypeOf(() => patchOperations({ Operations: [] }))).toBe("invalidSyntax");
  });
});

describe("service facts", () => {
  it("mints checksummed tokens and refuses altered ones", () => {
    const t = generateScimToken();
    expect(t).toMatch(/^vdt_scim_[0-9A-Za-z]{38}$/);
    expect(scimTokenWellFormed(t)).toBe(true);
    expect(scimTokenWellFormed(`${t.slice(0, 20)}${t[20] === "a" ? "b" : "a"}${t.slice(21)}`)).toBe(false);
  });

  it("maps groups to the highest role they give, never owner", () => {
    expect(roleFromGroups([])).toBe("member");
    expect(roleFromGroups(["Verdict-Viewers"])).toBe("viewer");
    expect(roleFromGroups(["verdict-viewers", "verdict-admins", "engineering"])).toBe("admin");
    expect(roleFromGroups(["verdict-owners"])).toBe("member");
  });

  it("pages from 1 with at most 200 results, and compares ETags weakly", () => {
    expect(pageOf("0", "-5")).toEqual({ startIndex: 1, count: 0 });
    expect(pageOf(undefined, "5000")).toEqual({ startIndex: 1, count: 200 });
    expect(ifMatchHolds('W/"3"', 3)).toBe(true);
    expect(ifMatchHolds('"3"', 3)).toBe(true);
    expect(ifMatchHolds('W/"2"', 3)).toBe(false);
    expect(ifMatchHolds("*", 3)).toBe(true);
  });
});
