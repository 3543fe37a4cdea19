// scim2-tester (PyPI, through scim2-cli; an independent implementation of RFC 7643/7644 checks)
// against /scim/v2 of a running all-in-one: every check must pass, none may error. Installed by
// scripts/install-test-tools.sh into .tools/scim2.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const SCIM2 = join(ROOT, ".tools/scim2/bin/scim2");
let v: Verdict;
let token: string;

beforeAll(async () => {
  v = await startVerdict();
  const created = await new Api(v.url, v.bootstrapKey).post("/v1/scim-tokens", { name: "scim2-tester" });
  expect(created.status).toBe(201);
  token = created.body.token;
});
afterAll(async () => v.destroy());

it("passes scim2-tester with 0 errors", async () => {
  const { stdout, stderr } = await promisify(execFile)(SCIM2, ["--url", `${v.url}/scim/v2`, "test"], {
    env: { PATH: process.env.PATH ?? "", SCIM_CLI_HEADERS: `Authorization: Bearer ${token}` },
    maxBuffer: 16 * 1024 * 1024,
  });
  const out = stdout + stderr;
  const count = (status: string) => out.split("\n").filter((l) => l.startsWith(`${status} `)).length;
  const errors = out
    .split("\n")
    .filter((l, i, all) => l.startsWith("ERROR ") || (i > 0 && all[i - 1]!.startsWith("ERROR ")));
  process.stdout.write(
    `scim2-tester: ${count("SUCCESS")} checks passed, ${count("ERROR")} errors, ${count("CRITICAL")} critical\n`,
  );
  expect(errors).toEqual([]);
  expect(count("CRITICAL")).toBe(0);
  expect(count("SUCCESS")).toBeGreaterThanOrEqual(130);
});
