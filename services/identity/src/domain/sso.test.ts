import { describe, expect, it } from "@jest/globals";
import {
  decideLink,
  domainErrors,
  emailDomain,
  idpSaysMfa,
  idpUrlProblem,
  normalizeCertificate,
  passwordSignInAllowed,
  planHasSso,
  type SsoIdentity,
} from "./sso.js";

const person = (over: Partial<SsoIdentity> = {}): SsoIdentity => ({
  email: "ann@acme.test",
  emailVerified: true,
  name: "Ann",
  subject: "sub-1",
  mfa: false,
  ...over,
});

describe("SSO domain routing", () => {
  it("takes the domain of an email, lowercased; nothing from a malformed address", () => {
    expect(emailDomain("Ann@Sub.ACME.test")).toBe("sub.acme.test");
    expect(emailDomain("ann@")).toBeUndefined();
    expect(emailDomain("@acme.test")).toBeUndefined();
    expect(emailDomain("ann@localhost")).toBeUndefined();
    expect(emailDomain("ann@acme..test")).toBeUndefined();
  });

  it("names each bad or repeated domain by its index", () => {
    expect(domainErrors(["acme.test", "ACME.test.", "not a domain"])).toEqual([
      expect.objectContaining({ field: "domains[1]", code: "INVALID_FORMAT" }),
      expect.objectContaining({ field: "domains[2]", code: "INVALID_FORMAT" }),
    ]);
    expect(domainErrors([])).toEqual([expect.objectContaining({ field: "domains", code: "REQUIRED" })]);
  });

  it("accepts https IdPs, and plain http only on loopback", () => {
    expect(idpUrlProblem("https://idp.example/realms/a")).toBeUndefined();
    expect(idpUrlProblem("http://127.0.0.1:8080/realms/a")).toBeUndefined();
    expect(idpUrlProblem("http://idp.example")).toMatch(/https/);
    expect(idpUrlProblem("idp.example")).toMatch(/absolute/);
  });

  it("is for the Team, Business and Enterprise plans", () => {
    expect(["free", "team", "business", "enterprise"].map((p) => planHasSso(p as never))).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });
});

describe("SSO linking decisions", () => {
  const base = { verifiedDomains: ["acme.test"], defaultRole: "viewer" as const };

  it("makes a new person a member with the default role", () => {
    expect(decideLink({ ...base, identity: person(), userExists: false, membership: undefined })).toEqual({
      kind: "join",
      role: "viewer",
      newUser: true,
    });
  });

  it("links an existing account only with a verified email in a verified domain", () => {
    expect(decideLink({ ...base, identity: person(), userExists: true, membership: { status: "active" } })).toEqual({
      kind: "sign_in",
    });
    expect(
      decideLink({
        ...base,
        identity: person({ emailVerified: false }),
        userExists: true,
        membership: { status: "active" },
      }),
    ).toMatchObject({ kind: "refuse", code: "SSO_EMAIL_NOT_VERIFIED" });
    expect(
      decideLink({
        ...base,
        identity: person({ email: "ann@other.test" }),
        userExists: true,
        membership: { status: "active" },
      }),
    ).toMatchObject({ kind: "refuse", code: "SSO_DOMAIN_NOT_VERIFIED" });
  });

  it("accepts an open invitation (its role stands) and lets someone from another organization join", () => {
    expect(decideLink({ ...base, identity: person(), userExists: true, membership: { status: "invited" } })).toEqual({
      kind: "activate_invitation",
    });
    expect(decideLink({ ...base, identity: person(), userExists: true, membership: undefined })).toEqual({
      kind: "join",
      role: "viewer",
      newUser: false,
    });
  });

  it("refuses a domain claimed but not verified", () => {
    expect(
      decideLink({ ...base, verifiedDomains: [], identity: person(), userExists: false, membership: undefined }),
    ).toMatchObject({ kind: "refuse", code: "SSO_DOMAIN_NOT_VERIFIED" });
  });
});

describe("SSO rules", () => {
  it("enforce leaves owners their password (break-glass)", () => {
    expect(passwordSignInAllowed(true, "owner")).toBe(true);
    expect(passwordSignInAllowed(true, "admin")).toBe(false);
    expect(passwordSignInAllowed(false, "viewer")).toBe(true);
  });

  it("counts an IdP sign-in as MFA only when amr or acr says so", () => {
    expect(idpSaysMfa(["pwd", "otp"], undefined)).toBe(true);
    expect(idpSaysMfa(["pwd"], "1")).toBe(false);
    expect(idpSaysMfa(undefined, "http://schemas.openid.net/pape/policies/2007/06/multi-factor")).toBe(true);
    expect(idpSaysMfa(undefined, undefined)).toBe(false);
  });

  it("normalizes a certificate given as PEM or bare base64, and refuses anything else", () => {
    const body = "MII" + "A".repeat(200);
    expect(normalizeCertificate(body)).toBe(
      normalizeCertificate(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`),
    );
    expect(normalizeCertificate("not a cert")).toBeUndefined();
  });
});
