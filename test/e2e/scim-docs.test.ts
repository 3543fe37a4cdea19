// Runs docs/scim.md's commands as written (curl and jq, in bash) against the all-in-one, whose
// default organization is on the Enterprise plan.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
beforeAll(async () => {
  v = await startVerdict();
});
afterAll(async () => v.destroy());

function docBlock(): string {
  const doc = readFileSync(join(ROOT, "docs/scim.md"), "utf8");
  const m = /```sh\n([\s\S]*?)```/.exec(doc);
  expect(m).not.toBeNull();
  return m![1]!;
}

it("docs/scim.md's commands work as written", async () => {
  const script = docBlock().replaceAll("http://localhost:8080", `http://localhost:${v.port}`);
  const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
    env: { PATH: process.env.PATH ?? "", VERDICT_API_KEY: v.bootstrapKey },
    encoding: "utf8",
  });
  const docs = out.split(/\n(?=[{[])|(?<=[}\]])(?=[{[])/).map((d) => JSON.parse(d));
  expect(docs[0]).toMatchObject({
    schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
    totalResults: 1,
    Resources: [{ userName: "lin@example.com", active: true }],
  });
  expect(Object.keys(docs[0].Resources[0]).sort()).toEqual(["active", "id", "schemas", "userName"]);
  expect(docs[1]).toEqual({ displayName: "verdict-admins", members: [docs[0].Resources[0].id] });
  expect(docs[2]).toEqual({ email: "lin@example.com", role: "admin" });
  expect(docs[3]).toEqual({ userName: "lin@example.com", active: false });
  expect(docs[4]).toEqual(["Okta"]);
  expect(docs).toHaveLength(5);
  // deactivated: no longer a member
  const members = await new Api(v.url, v.bootstrapKey).get("/v1/members");
  expect(members.body.members.map((m: { email: string }) => m.email)).not.toContain("lin@example.com");
});
