// docs/policies.md's "Quiet by design" claim, held to the letter: every placeholder and documentation
// example it lists is read from that doc itself and put where secrets go (assignments in several
// syntaxes, headers, URLs, curl, token formats filled with it); the full built-in library, as an
// organization with every secret setting on runs it, reports none of them. A real-looking secret in
// the same places is reported, so the silence is the placeholder's doing.
import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolveBuiltins } from "@verdict/policy";
import { compileEngine } from "./domain/engine.js";

const DOC = readFileSync(fileURLToPath(new URL("../../../docs/policies.md", import.meta.url)), "utf8");

/** The inline-code items of the docs/policies.md paragraph that makes the claim. */
function listedPlaceholders(): string[] {
  const start = DOC.indexOf("- **Quiet by design.**");
  const paragraph = DOC.slice(start, DOC.indexOf("\n- **", start + 1));
  const claim = /placeholders \(([^)]*(?:\([^)]*\)[^)]*)*)\) are not reported/.exec(paragraph.replace(/\s+/g, " "));
  if (!claim) throw new Error("docs/policies.md's Quiet by design paragraph no longer lists its placeholders");
  return [...claim[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** A placeholder as it appears in a file: `…` stands for "and so on". */
function spelledOut(placeholder: string): string {
  return placeholder.replace(/^(.)\1{3}…$/, (_, c: string) => c.repeat(32)).replace("{{ … }}", "{{ .Values.apiKey }}");
}

/** The places secrets are written in, each with the value in it. */
const CONTEXTS: [string, (v: string) => string][] = [
  ["settings.py", (v) => `API_KEY = "${v}"\npassword = "${v}"\nclient_secret = '${v}'\n`],
  ["config.yaml", (v) => `auth:\n  token: ${v}\n  password: "${v}"\n`],
  [".env", (v) => `DB_PASSWORD=${v}\nSTRIPE_SECRET_KEY=${v}\n`],
  ["app.config.xml", (v) => `<config><apiKey>${v}</apiKey><password>${v}</password></config>\n`],
  [
    "client.ts",
    (v) =>
      `const headers = { Authorization: "Bearer ${v}" };\nconst db = "postgres://ledger:${v}@db.acme-prod.net/ledger";\n`,
  ],
  [
    "deploy.sh",
    (v) =>
      `curl -u deploy:${v} https://ci.acme-prod.net/hook\ncurl -H "Authorization: Bearer ${v}" https://api.acme-prod.net\n`,
  ],
];

/** Token formats filled in with a run of one placeholder character (`ghp_xxxx…`, `sk_live_****…`). */
const FORMATS = (run: string) => [
  `ghp_${run.slice(0, 36)}`,
  `sk_live_${run.slice(0, 24)}`,
  `xoxb-${run.slice(0, 12)}-${run.slice(0, 24)}`,
  `AKIA${run.slice(0, 16).toUpperCase()}`,
];

const policies = resolveBuiltins({ "hardcoded-credentials": { detect_api_keys: true } });
const engine = compileEngine(policies);
const secretPolicies = new Set(policies.filter((p) => p.category === "secrets").map((p) => p.id));
const secretFindings = (path: string, text: string) =>
  engine
    .scan(path, Buffer.from(text), { allowSuppression: false, limit: 1000 })
    .findings.filter((f) => secretPolicies.has(f.policy_id))
    .map((f) => `${f.rule_id} ${f.code_snippet}`);

describe("docs/policies.md's placeholders", () => {
  const listed = listedPlaceholders();

  it("are read from docs/policies.md's Quiet by design paragraph", () => {
    expect(listed).toEqual(
      expect.arrayContaining(["AKIAIOSFODNN7EXAMPLE", "${VAR}", "<your-key>", "xxxx…", "changeme", "{{ … }}"]),
    );
  });

  it.each(listed)("%s is not reported wherever a secret goes", (placeholder) => {
    const value = spelledOut(placeholder);
    const values = /^(.)\1{3}…$/.test(placeholder) ? [value, ...FORMATS(value)] : [value];
    for (const v of values)
      for (const [path, write] of CONTEXTS)
        expect({ path, v, findings: secretFindings(path, write(v)) }).toEqual({ path, v, findings: [] });
  });

  it("are the reason for the silence: a real-looking secret in the same places is reported", () => {
    const secret = "Qx7zK2pV9mWc4TbN8rLs3YdJ";
    for (const [path, write] of CONTEXTS)
      expect({ path, reported: secretFindings(path, write(secret)).length > 0 }).toEqual({ path, reported: true });
  });
});
