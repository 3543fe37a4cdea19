// The audit log's hash chain over real HTTP and the real CLI: the JSON Lines export, and
// `verdict audit verify` passing on an intact log and failing, naming the event, once the stored
// events are changed, removed or reordered directly in the store (the instance stopped, its
// documents edited as someone with access to the database would, the instance started again).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createStore, type Store } from "@verdict/store";
import { Api } from "../support/api.js";
import { auditEventOfRequest } from "../support/audit.js";
import { isolatedHome, runCli, runDocBlock } from "../support/cli.js";
import { mongoDatabaseOf, ROOT, startVerdict, type Verdict } from "../support/server.js";

interface Line {
  seq: number;
  id: string;
  prev_hash: string;
  hash: string;
  data: Record<string, unknown>;
}

let v: Verdict;
let op: Api;
let lines: Line[];
const AUDIT = "identity_audit_events";
const work = mkdtempSync(join(tmpdir(), "verdict-audit-chain-"));

const verify = (...args: string[]) =>
  runCli(["audit", "verify", ...args], {
    env: { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey },
  });

/** Stops the instance, edits its stored audit events, starts it again on the same data. */
async function tamper(edit: (store: Store) => Promise<void>): Promise<void> {
  await v.stop();
  const mongo = mongoDatabaseOf(v.dataDir);
  const store = await createStore({
    mongodbUri: mongo?.uri,
    mongodbDatabase: mongo?.database,
    sqliteFile: join(v.dataDir, "verdict.db"),
  });
  try {
    await edit(store);
  } finally {
    await store.close();
  }
  v = await startVerdict({ dataDir: v.dataDir, bootstrapKey: v.bootstrapKey });
}

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  // Events from identity itself and, through the bus, from the policy service.
  for (const severity of ["warning", "error", "warning"]) {
    const res = await op.patch("/v1/policies/sql-injection", { severity });
    await auditEventOfRequest(op, res.headers.get("x-request-id"));
  }
  await op.post("/v1/api-keys", { name: "ci", scopes: ["read:org"] });
  const org = await op.patch("/v1/organization", { settings: { require_evaluation_pass: false } });
  await auditEventOfRequest(op, org.headers.get("x-request-id"));
});
afterAll(async () => v.destroy());

describe("the audit log's hash chain", () => {
  it("exports the log as JSON Lines in chain order, each event linked to the one before", async () => {
    const res = await fetch(`${v.url}/v1/audit-events/export`, {
      headers: { authorization: `Bearer ${v.bootstrapKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines[0]!.prev_hash).toBe("0".repeat(64));
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.prev_hash).toBe(lines[i - 1]!.hash);
    // The list shows the same chain fields.
    const listed = (await op.get("/v1/audit-events", { query: { limit: 100 } })).body.audit_events;
    const last = lines[lines.length - 1]!;
    expect(listed.find((e: { id: string }) => e.id === last.id)).toMatchObject({ seq: last.seq, hash: last.hash });
    writeFileSync(join(work, "export.jsonl"), text);
  });

  it("verifies an intact log, from the API and from an export file, and prints its head", async () => {
    const live = await verify();
    expect(live.code).toBe(0);
    const last = lines[lines.length - 1]!;
    expect(live.stdout).toContain(`audit log verified: ${lines.length} events`);
    expect(live.stdout).toContain(`head ${last.seq}:${last.hash}`);

    const exported = await runCli(["audit", "export", "--out", "again.jsonl"], {
      cwd: work,
      env: { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey },
    });
    expect(exported.code).toBe(0);
    const file = await runCli(["audit", "verify", "--file", join(work, "again.jsonl"), "--json"], {
      env: isolatedHome(),
    });
    expect(file.code).toBe(0);
    expect(JSON.parse(file.stdout)).toMatchObject({ ok: true, checked: lines.length });
  });

  it("docs/audit.md's commands work as written", () => {
    const doc = readFileSync(join(ROOT, "docs", "audit.md"), "utf8");
    const from = doc.indexOf("## Tamper evidence");
    expect(from).toBeGreaterThan(0);
    const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(from))![1]!;
    const last = lines[lines.length - 1]!;
    const out = runDocBlock(block, {
      cwd: work,
      env: { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey, HEAD: `${last.seq}:${last.hash}` },
    });
    expect(out.match(/^audit log verified: \d+ events, chain intact$/gm)).toHaveLength(2);
    expect(readFileSync(join(work, "audit.jsonl"), "utf8").trim().split("\n").length).toBeGreaterThanOrEqual(
      lines.length,
    );
  });

  it("detects an export cut off at its end against the head seen before", async () => {
    const last = lines[lines.length - 1]!;
    const cut = readFileSync(join(work, "export.jsonl"), "utf8").trim().split("\n").slice(0, -1).join("\n");
    writeFileSync(join(work, "cut.jsonl"), cut + "\n");
    const r = await runCli(
      ["audit", "verify", "--file", join(work, "cut.jsonl"), "--head", `${last.seq}:${last.hash}`],
      {
        env: isolatedHome(),
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAILED verification at event ${last.seq}`);
    expect(r.stdout).toContain("truncated");
  });

  it("fails naming the event whose stored content was changed", async () => {
    const target = lines[2]!;
    await tamper(async (store) => {
      const audit = store.collection<Line & { id: string }>(AUDIT);
      expect(
        await audit.updateOne({ id: target.id }, { data: { changes: { severity: { before: "x", after: "y" } } } }),
      ).not.toBeNull();
    });
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAILED verification at event 3 (${target.id}): changed`);
  });

  it("fails naming the event after one that was removed, and the one moved when events are reordered", async () => {
    const removed = lines[3]!;
    const stored: Record<string, unknown>[] = [];
    await tamper(async (store) => {
      const audit = store.collection<Line & { id: string }>(AUDIT);
      // (the change of the test before is put back: only the removal is wrong now)
      await audit.updateOne({ id: lines[2]!.id }, { data: lines[2]!.data });
      stored.push((await audit.findOne({ id: removed.id })) as unknown as Record<string, unknown>);
      expect(await audit.deleteOne({ id: removed.id })).toBe(true);
    });
    const gone = await verify();
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(`FAILED verification at event 5 (${lines[4]!.id}): missing`);

    // Restored, then the second and third events swap places (their numbers exchanged).
    const [second, third] = [lines[1]!, lines[2]!];
    await tamper(async (store) => {
      const audit = store.collection<Line & { id: string }>(AUDIT);
      await audit.insertOne(stored[0] as unknown as Line & { id: string });
      await audit.updateOne({ id: second.id }, { seq: -1 });
      await audit.updateOne({ id: third.id }, { seq: 2 });
      await audit.updateOne({ id: second.id }, { seq: 3 });
    });
    const swapped = await verify();
    expect(swapped.code).toBe(1);
    expect(swapped.stdout).toContain(`FAILED verification at event 2 (${third.id})`);
  });
});
