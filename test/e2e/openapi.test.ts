// The OpenAPI document against the running gateway: every operation it documents answers (a
// request without credentials or body gets one of the statuses documented for it, never a 5xx or
// "no route"), and every endpoint the authorization server advertises is documented.
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { startVerdict, type Verdict } from "../support/server.js";

type Operation = { responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation>> };

let v: Verdict;
let doc: Doc;

beforeAll(async () => {
  v = await startVerdict();
  doc = (await (await fetch(`${v.url}/v1/openapi.json`)).json()) as Doc;
});
afterAll(async () => v.destroy());

it("every documented operation answers with a status documented for it", async () => {
  const answers: string[] = [];
  const wrong: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const url = `${v.url}${path.replace(/\{[^}]+\}/g, "x")}`;
      const res = await fetch(url, {
        method: method.toUpperCase(),
        redirect: "manual",
        ...(["post", "put", "patch"].includes(method)
          ? { headers: { "content-type": "application/json" }, body: "{}" }
          : {}),
      });
      await res.arrayBuffer();
      const line = `${method.toUpperCase()} ${path} -> ${res.status}`;
      answers.push(line);
      if (!Object.keys(op.responses).includes(String(res.status))) wrong.push(line);
    }
  }
  expect(answers.length).toBeGreaterThan(60);
  expect(wrong).toEqual([]);
});

it("documents every endpoint the authorization server advertises", async () => {
  const m = (await (await fetch(`${v.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  const advertised = Object.entries(m)
    .filter(([k, val]) => (k.endsWith("_endpoint") || k === "jwks_uri") && typeof val === "string")
    .map(([, val]) => new URL(val as string).pathname);
  expect(advertised).toEqual(
    expect.arrayContaining(["/auth/oauth/authorize", "/auth/oauth/token", "/auth/oauth/revoke"]),
  );
  for (const p of advertised) expect(Object.keys(doc.paths)).toContain(p);
});
