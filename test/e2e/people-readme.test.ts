// Runs docs/people.md's "Members and sign-in" commands as written (curl and jq, in bash), against a
// fresh instance on its own port instead of 8080.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let dir: string;
beforeAll(async () => {
  v = await startVerdict();
  dir = mkdtempSync(join(tmpdir(), "verdict-readme-people-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await v.destroy();
});

function readmeBlock(heading: string): string {
  const readme = readFileSync(join(ROOT, "docs", "people.md"), "utf8");
  const from = readme.indexOf(`\n${heading}\n`);
  expect(from).toBeGreaterThan(0);
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  return m![1]!;
}

it("docs/people.md's members and sign-in walkthrough works as written", async () => {
  const script = readmeBlock("## Members and sign-in").replaceAll(
    "http://localhost:8080",
    `http://localhost:${v.port}`,
  );
  const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", VERDICT_API_KEY: v.bootstrapKey },
    encoding: "utf8",
  });
  // accept, login, members, key, audit events: one JSON document each, then logout's empty 204
  const docs = out.split(/\n(?=\{)|(?<=\})(?=\{)/).map((d) => JSON.parse(d));
  expect(docs[0]).toMatchObject({ member: { email: "ada@example.com", status: "active", role: "owner" } });
  expect(docs[1]).toMatchObject({
    mfa_required: false,
    session: { role: "owner", user: { email: "ada@example.com" } },
  });
  expect(docs[2].members.map((m: { email: string }) => m.email)).toEqual(["ada@example.com"]);
  expect(docs[3]).toMatchObject({
    name: "laptop",
    scopes: ["read:evaluations"],
    key: expect.stringMatching(/^vdt_key_prod_/),
  });
  expect(docs[4].audit_events.map((e: { type: string }) => e.type)).toEqual(["signin.succeeded"]);
  expect(docs).toHaveLength(5);
  // signed out: the jar's session works no more
  const jar = readFileSync(join(dir, "jar"), "utf8");
  const token = /verdict_session\t(vdt_ses_\S+)/.exec(jar)?.[1];
  expect(token).toMatch(/^vdt_ses_/);
  expect(
    (await new Api(v.url).get("/v1/members", { key: null, headers: { cookie: `verdict_session=${token}` } })).status,
  ).toBe(401);
});

it("docs/people.md's OAuth application walkthrough works as written", () => {
  const script = readmeBlock("## Applications acting for members (OAuth 2.0)").replaceAll(
    "http://localhost:8080",
    `http://localhost:${v.port}`,
  );
  const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", VERDICT_API_KEY: v.bootstrapKey },
    encoding: "utf8",
  });
  const docs = out.split(/\n(?=\{)|(?<=\})(?=\{)/).map((d) => JSON.parse(d));
  expect(docs[0]).toMatchObject({
    client_id: expect.stringMatching(/^oac_/),
    name: "CI dashboard",
    public: false,
    client_secret: expect.stringMatching(/^vdt_ocs_/),
  });
  expect(docs[1].oauth_clients).toEqual([expect.objectContaining({ client_id: docs[0].client_id })]);
  expect(JSON.stringify(docs[1])).not.toContain(docs[0].client_secret);
  expect(docs[2]).toMatchObject({
    issuer: `http://localhost:${v.port}/auth`,
    token_endpoint: `http://localhost:${v.port}/auth/oauth/token`,
    code_challenge_methods_supported: ["S256"],
  });
  expect(docs).toHaveLength(3);
});

it("docs/people.md's password change and reset walkthrough works as written", async () => {
  // Runs after the members walkthrough (ada@example.com is an owner with its password): sign in
  // as she did there, then the section's commands as written.
  const signIn = [
    'V=http://localhost:8080/v1; A=http://localhost:8080/auth; H="Authorization: Bearer $VERDICT_API_KEY"',
    "curl -s -c jar -X POST $A/login -H 'Content-Type: application/json' \\",
    '  -d \'{"email": "ada@example.com", "password": "correct horse battery staple"}\' > /dev/null',
    "CSRF=$(curl -s -b jar $A/session | jq -r .csrf_token)",
  ].join("\n");
  const script = `${signIn}\n${readmeBlock("## Passwords: change and reset")}`.replaceAll(
    "http://localhost:8080",
    `http://localhost:${v.port}`,
  );
  execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", VERDICT_API_KEY: v.bootstrapKey },
    encoding: "utf8",
  });
  const api = new Api(v.url);
  const login = (password: string) => api.post("/auth/login", { email: "ada@example.com", password }, { key: null });
  // The reset's password signs in; the original and the changed one no longer do.
  expect((await login("chosen by the person alone")).status).toBe(200);
  expect((await login("a new and longer passphrase")).status).toBe(401);
  expect((await login("correct horse battery staple")).status).toBe(401);
});
