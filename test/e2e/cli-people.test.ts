// The `verdict` command for people and access, black-box: the real binary against a running
// Verdict. Members and invitations, the audit log across cursor pages, OAuth clients, the SSO
// connection and SCIM tokens; secrets printed once on stdout and never in an error line; and
// docs/cli.md's commands run as written.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { VerdictClient } from "@verdict/sdk";
import { CLI, isolatedHome, runCli, type CliResult } from "../support/cli.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let sdk: VerdictClient;
let env: Record<string, string>;

const cli = (args: string[], extra: { env?: Record<string, string | undefined>; input?: string } = {}) =>
  runCli(args, { input: extra.input, env: { ...env, ...extra.env } });

function expectOneLineError(r: CliResult, pattern: RegExp): void {
  expect({ code: r.code, stderr: r.stderr.trimEnd() }).toEqual({ code: 2, stderr: expect.stringMatching(pattern) });
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
}

async function json<T>(args: string[], extra: Parameters<typeof cli>[1] = {}): Promise<T> {
  const r = await cli([...args, "--json"], extra);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  v = await startVerdict();
  sdk = new VerdictClient({ baseUrl: v.url, apiKey: v.bootstrapKey });
  env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
});
afterAll(async () => v.destroy());

describe("verdict members", () => {
  it("invites (the link printed once), lists, changes the role of and removes a member", async () => {
    const invited = await cli(["members", "invite", "lin@example.com", "--role", "admin"]);
    expect(invited.code).toBe(0);
    expect(invited.stdout).toMatch(/^invited lin@example\.com as admin: user_\w+, until \d{4}-/m);
    const link = /invitation link \(shown once, works once; send it to lin@example\.com\): (\S+)$/m.exec(
      invited.stdout,
    )?.[1];
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*vdt_inv_/);
    expect(invited.stderr).toBe("");

    const table = await cli(["members", "list"]);
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+ROLE\s+STATUS\s+MFA\s+CREATED$/);
    const row = table.stdout.split("\n").find((l) => l.includes("lin@example.com"))!;
    expect(row).toMatch(/^user_\w+\s+lin@example\.com\s+-\s+admin\s+invited until \d{4}-.*\s+no\s+\d{4}-/);
    expect(table.stdout).not.toContain(link!); // the link is never shown again
    const { members } = await json<{ members: { id: string; email: string; status: string }[] }>(["members", "list"]);
    const lin = members.find((m) => m.email === "lin@example.com")!;
    expect(lin).toMatchObject({ id: expect.stringMatching(/^user_/), status: "invited" });
    expect(JSON.stringify(members)).not.toContain("vdt_inv_");

    const changed = await cli(["members", "set-role", lin.id, "viewer"]);
    expect(changed).toMatchObject({ code: 0, stdout: `lin@example.com (${lin.id}) is now viewer\n` });
    expect((await sdk.listMembers()).members.find((m) => m.id === lin.id)?.role).toBe("viewer");

    expect(await json(["members", "remove", lin.id])).toEqual({ removed: lin.id });
    expect((await sdk.listMembers()).members.map((m) => m.id)).not.toContain(lin.id);
    expectOneLineError(await cli(["members", "remove", lin.id]), /^verdict: .*\[RESOURCE_NOT_FOUND\] \(request req_/);
  });

  it("with --json, answers the invitation link in invitation_url", async () => {
    const m = await json<{ email: string; role: string; invitation_url: string }>([
      "members",
      "invite",
      "kai@example.com",
    ]);
    expect(m).toMatchObject({
      email: "kai@example.com",
      role: "member",
      invitation_url: expect.stringMatching(/vdt_inv_/),
    });
  });

  it("refuses a bad role before any call, and names the field and code of a refused email", async () => {
    expectOneLineError(
      await cli(["members", "invite", "x@example.com", "--role", "boss"]),
      /^verdict: option '--role <role>' argument 'boss' is invalid\. must be one of owner, admin, member, viewer/,
    );
    expectOneLineError(
      await cli(["members", "set-role", "user_x", "boss"]),
      /^verdict: command-argument value 'boss' is invalid for argument 'role'\. must be one of/,
    );
    expectOneLineError(
      await cli(["members", "invite", "not-an-email"]),
      /^verdict: .*email: .*\(INVALID_FORMAT\) \[VALIDATION_FAILED\] \(request req_\w+\)$/,
    );
  });

  it("tells a key without the admin scope it lacks it", async () => {
    const key = await sdk.createApiKey({ name: "reader", scopes: ["read:org"], expiration: "24h" });
    const r = await cli(["members", "invite", "z@example.com"], { env: { VERDICT_API_KEY: key.key } });
    expectOneLineError(r, /^verdict: permission denied: .*\[AUTH_INSUFFICIENT_SCOPE\]/);
    expect(r.stderr).not.toContain(key.key);
  });
});

describe("verdict audit list", () => {
  it("follows cursors past one page (100) up to --limit, newest first, with filters", async () => {
    const emails = Array.from({ length: 105 }, (_, i) => `audit${i}@example.com`);
    for (const email of emails) await sdk.inviteMember({ email, role: "viewer" });

    const { audit_events } = await json<{
      audit_events: { id: string; type: string; occurred_at: string; target: { id: string } }[];
    }>(["audit", "list", "--type", "member.invited", "--limit", "103"]);
    expect(audit_events).toHaveLength(103); // a page of 100, then a second page
    expect(new Set(audit_events.map((e) => e.id)).size).toBe(103);
    expect(audit_events.every((e) => e.type === "member.invited")).toBe(true);
    const times = audit_events.map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    // the same events the SDK's own iterator finds
    const viaSdk: string[] = [];
    for await (const e of sdk.auditEvents({ type: "member.invited", limit: 100 })) {
      viaSdk.push(e.id);
      if (viaSdk.length === 103) break;
    }
    expect(audit_events.map((e) => e.id)).toEqual(viaSdk);

    const table = await cli(["audit", "list", "--type", "member.invited", "--limit", "2"]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+TIME\s+TYPE\s+ACTOR\s+IP\s+TARGET$/);
    expect(lines.slice(1)).toHaveLength(2);
    expect(lines[1]).toMatch(/^aud_\w+\s+\d{4}-\S+\s+member\.invited\s+api_key:key_\w+\s+\S+\s+user:user_\w+$/);

    const keyId = (await sdk.verifyKey()).key_id;
    const byActor = await json<{ audit_events: { actor: { id: string } }[] }>([
      "audit",
      "list",
      "--actor",
      keyId,
      "--limit",
      "5",
    ]);
    expect(byActor.audit_events.length).toBeGreaterThan(0);
    expect(byActor.audit_events.every((e) => e.actor.id === keyId)).toBe(true);
    const future = await json<{ audit_events: unknown[] }>(["audit", "list", "--since", "2999-01-01"]);
    expect(future.audit_events).toEqual([]);
    expect((await cli(["audit", "list", "--since", "2999-01-01"])).stdout).toBe("(none)\n");
  });

  it("names the refused filter", async () => {
    expectOneLineError(
      await cli(["audit", "list", "--since", "yesterday"]),
      /^verdict: .*since: .*\[VALIDATION_FAILED\]/,
    );
    expectOneLineError(await cli(["audit", "list", "--limit", "0"]), /^verdict: option '--limit <n>' argument '0'/);
  });
});

describe("verdict oauth-clients", () => {
  it("creates a confidential client (secret printed once), lists it without the secret, deletes it", async () => {
    const r = await cli([
      "oauth-clients",
      "create",
      "Deploy bot",
      "--redirect-uri",
      "https://deploy.example.com/callback",
      "--redirect-uri",
      "http://localhost:50123/cb",
      "--scope",
      "read:evaluations",
      "--scope",
      "write:evaluations",
    ]);
    expect(r.code).toBe(0);
    const id = /^created confidential client (oac_\w+) \(Deploy bot\)$/m.exec(r.stdout)?.[1];
    const secret = /^client secret \(shown once, store it now\): (vdt_ocs_\S+)$/m.exec(r.stdout)?.[1];
    expect(id).toBeDefined();
    expect(secret).toBeDefined();

    const list = await cli(["oauth-clients", "list"]);
    expect(list.stdout.split("\n")[0]).toMatch(/^CLIENT ID\s+NAME\s+TYPE\s+SCOPES\s+REDIRECT URIS\s+CREATED$/);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${id}\\s+Deploy bot\\s+confidential\\s+read:evaluations,write:evaluations\\s+https://deploy\\.example\\.com/callback http://localhost:50123/cb`,
        "m",
      ),
    );
    expect(list.stdout).not.toContain(secret!);
    const listed = await json<{ oauth_clients: { client_id: string }[] }>(["oauth-clients", "list"]);
    expect(listed.oauth_clients.map((o) => o.client_id)).toContain(id);
    expect(JSON.stringify(listed)).not.toContain(secret!);

    expect(await json(["oauth-clients", "delete", id!])).toEqual({ deleted: id });
    expect((await sdk.listOAuthClients()).oauth_clients.map((o) => o.client_id)).not.toContain(id);
    expectOneLineError(
      await cli(["oauth-clients", "delete", id!]),
      new RegExp(`^verdict: oauth_client '${id}' was deleted \\[RESOURCE_DELETED\\] \\(request req_\\w+\\)$`),
    );
  });

  it("creates a public client without a secret", async () => {
    const o = await json<{ public: boolean; client_secret: string | null }>([
      "oauth-clients",
      "create",
      "Laptop app",
      "--redirect-uri",
      "http://127.0.0.1:50124/cb",
      "--scope",
      "read:policies",
      "--public",
    ]);
    expect(o).toMatchObject({ public: true, client_secret: null });
  });

  it("names a refused redirect URI by its index and code; refuses an unknown scope before any call", async () => {
    expectOneLineError(
      await cli([
        "oauth-clients",
        "create",
        "Bad",
        "--redirect-uri",
        "https://ok.example.com/cb",
        "--redirect-uri",
        "http://evil.example.com/cb",
        "--scope",
        "read:org",
      ]),
      /^verdict: .*redirect_uris\[1\]: .*\(INVALID_FORMAT\) \[VALIDATION_FAILED\] \(request req_\w+\)$/,
    );
    expectOneLineError(
      await cli(["oauth-clients", "create", "Bad", "--redirect-uri", "https://ok.example.com/cb", "--scope", "root"]),
      /^verdict: option '--scope <scope>' argument 'root' is invalid\. must be one of read:evaluations/,
    );
    expectOneLineError(
      await cli(["oauth-clients", "create", "Bad", "--scope", "read:org"]),
      /^verdict: required option '--redirect-uri <uri>' not specified/,
    );
  });
});

describe("verdict sso", () => {
  it("sets an OIDC connection with the secret from stdin, shows it without the secret, deletes it", async () => {
    const secret = "oidc-client-secret-" + Math.random().toString(36).slice(2);
    const set = await cli(
      [
        "sso",
        "set",
        "--type",
        "oidc",
        "--issuer",
        "https://idp.example.com/realms/acme",
        "--client-id",
        "verdict",
        "--client-secret-stdin",
        "--domain",
        "acme.example",
        "--default-role",
        "viewer",
      ],
      { input: `${secret}\n` },
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^saved oidc connection for acme\.example$/m);
    expect(set.stdout).toMatch(/^publish DNS TXT for acme\.example: verdict-domain-verification=\S+$/m);

    const show = await cli(["sso", "show"]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^type\s+oidc$/m);
    expect(show.stdout).toMatch(/^issuer\s+https:\/\/idp\.example\.com\/realms\/acme$/m);
    expect(show.stdout).toMatch(/^client_secret\s+set \(never shown\)$/m);
    expect(show.stdout).toMatch(/^default_role\s+viewer$/m);
    expect(show.stdout).toMatch(/^oidc_redirect_uri\s+http:\/\/127\.0\.0\.1:\d+\/auth\/oidc\/callback$/m);
    expect(show.stdout + set.stdout + set.stderr).not.toContain(secret);
    expect(await json(["sso", "show"])).toMatchObject({ type: "oidc", client_secret_set: true, enforce: false });

    // A change without a secret keeps the stored one.
    const kept = await json<{ enforce: boolean; client_secret_set: boolean }>([
      "sso",
      "set",
      "--type",
      "oidc",
      "--issuer",
      "https://idp.example.com/realms/acme",
      "--client-id",
      "verdict",
      "--domain",
      "acme.example",
      "--enforce",
      "true",
    ]);
    expect(kept).toMatchObject({ enforce: true, client_secret_set: true });

    expect((await cli(["sso", "delete"])).stdout).toBe("deleted the SSO connection\n");
    expectOneLineError(await cli(["sso", "show"]), /\[RESOURCE_NOT_FOUND\]/);
  });

  it("sets a SAML connection from a metadata file; names the field of a bad one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-cli-sso-"));
    writeFileSync(join(dir, "bad.xml"), "<not-metadata/>");
    expectOneLineError(
      await cli([
        "sso",
        "set",
        "--type",
        "saml",
        "--domain",
        "acme.example",
        "--idp-metadata-file",
        join(dir, "bad.xml"),
      ]),
      /^verdict: .*idp_metadata_xml: .*\[VALIDATION_FAILED\]/,
    );
    expectOneLineError(
      await cli([
        "sso",
        "set",
        "--type",
        "saml",
        "--domain",
        "acme.example",
        "--idp-metadata-file",
        join(dir, "none.xml"),
      ]),
      /^verdict: cannot read .*none\.xml: ENOENT$/,
    );
    expectOneLineError(
      await cli(["sso", "set", "--type", "oidc", "--domain", "acme.example", "--client-id", "x"]),
      /^verdict: .*issuer: .*\(REQUIRED\).*client_secret: .*\(REQUIRED\) \[VALIDATION_FAILED\]/,
    );
  });
});

describe("verdict scim-tokens", () => {
  it("creates a token (printed once) that provisions at /scim/v2, lists its prefix only, deletes it", async () => {
    const r = await cli(["scim-tokens", "create", "okta", "--expiration", "7d"]);
    expect(r.code).toBe(0);
    const id = /^created (sct_\w+) \(okta\), expires \d{4}-/m.exec(r.stdout)?.[1];
    const token = /^token \(shown once, paste it into the identity provider now\): (vdt_scim_\S+)$/m.exec(
      r.stdout,
    )?.[1];
    expect(id).toBeDefined();
    const users = () =>
      fetch(`${v.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.status);
    expect(await users()).toBe(200);

    const list = await cli(["scim-tokens", "list"]);
    expect(list.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+PREFIX\s+EXPIRES\s+LAST USED\s+CREATED$/);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+okta\\s+vdt_scim_\\S+\\s+\\d{4}-\\S+\\s+\\d{4}-`, "m"));
    expect(list.stdout).not.toContain(token!);

    expect((await cli(["scim-tokens", "delete", id!])).stdout).toBe(`deleted ${id}\n`);
    expect(await users()).toBe(401);
    expectOneLineError(
      await cli(["scim-tokens", "create", "x", "--expiration", "1y"]),
      /^verdict: option '--expiration <when>' argument '1y' is invalid/,
    );
  });
});

describe("help", () => {
  it("describes every new command and its options", async () => {
    const top = await cli(["--help"]);
    for (const c of ["members", "audit", "oauth-clients", "sso", "scim-tokens"])
      expect(top.stdout).toMatch(new RegExp(`^  ${c} `, "m"));
    const audit = await cli(["audit", "list", "--help"]);
    expect(audit.code).toBe(0);
    for (const o of ["--actor <id>", "--type <type>", "--since <date>", "--until <date>", "--limit <n>"])
      expect(audit.stdout).toContain(o);
    const invite = await cli(["members", "invite", "--help"]);
    expect(invite.stdout).toMatch(/^Usage: verdict members invite \[options\] <email>/);
    expect(invite.stdout).toContain("printed once");
    const sso = await cli(["sso", "set", "--help"]);
    expect(sso.stdout).toContain("--client-secret-stdin");
    const group = await cli(["scim-tokens"]);
    expect(group.code).toBe(2);
    expect(group.stderr).toMatch(/^Usage: verdict scim-tokens \[options\] \[command\]/);
  });
});

describe("docs/cli.md", () => {
  it("its people-and-access commands work as written", async () => {
    const doc = readFileSync(join(ROOT, "docs", "cli.md"), "utf8");
    const from = doc.indexOf("**People and access.**");
    expect(from).toBeGreaterThan(0);
    const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(from))![1]!;
    const secret = "docs-oidc-secret-" + Math.random().toString(36).slice(2);
    const script = `verdict() { "${process.execPath}" "${CLI}" "$@"; }\n${block}`;
    const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
      env: { ...env, PATH: process.env.PATH ?? "", OIDC_CLIENT_SECRET: secret },
      encoding: "utf8",
    });
    expect(out).toMatch(/^invited grace@example\.com as member: user_\w+/m);
    expect(out).toMatch(/^grace@example\.com \(user_\w+\) is now viewer$/m);
    expect(out).toMatch(/^aud_\w+\s+\S+\s+member\.role_changed\s+api_key:key_\w+/m);
    expect(out).toMatch(/^removed user_\w+$/m);
    expect(out).toMatch(/^client secret \(shown once, store it now\): vdt_ocs_/m);
    expect(out).toMatch(
      /^oac_\w+\s+CI dashboard\s+confidential\s+read:evaluations,read:policies\s+https:\/\/ci\.example\.com\/callback/m,
    );
    const token = /^token \(shown once, paste it into the identity provider now\): (vdt_scim_\S+)$/m.exec(out)![1]!;
    expect(out.split(token)).toHaveLength(2); // once
    expect(out).toMatch(/^saved oidc connection for example\.com$/m);
    expect(out).toMatch(/^client_secret\s+set \(never shown\)$/m);
    expect(out).toMatch(/^deleted the SSO connection$/m);
    expect(out).not.toContain(secret);
  });
});
