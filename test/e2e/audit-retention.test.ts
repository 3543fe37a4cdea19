// Audit retention over real HTTP and the real CLI: time passes (the all-in-one launcher takes a
// clock adapter, as in expiry.test.ts), an organization sets `audit_retention_days` (itself an
// audit event; under 90 refused), which applies at once: the events past it are deleted behind a
// checkpoint, `verdict audit verify` still passes from that checkpoint, and a kept event changed
// or removed in a saved export still fails it (the running all-in-one holds its store's file
// exclusively, and audit-chain.test.ts shows the export carries what the store holds).
// All-in-one specific: a clock cannot be handed to separate processes, so the distributed pass
// skips it (the identity service's code is the same).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { expectFieldError, type Api } from "../support/api.js";
import { auditEventMatching, auditEventOfRequest } from "../support/audit.js";
import { isolatedHome, runCli, runCommand } from "../support/cli.js";
import { launchClocked, type ClockedVerdict } from "../support/clocked.js";
import { ROOT, TARGET } from "../support/server.js";

const describeAllInOne = TARGET === "all-in-one" ? describe : describe.skip;

const DAY = 86_400_000;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const work = mkdtempSync(join(tmpdir(), "verdict-audit-retention-work-"));
let verdict: ClockedVerdict;
let api: Api;
let bootstrapKey: string;

beforeAll(async () => {
  verdict = await launchClocked("audit-retention", clock);
  ({ api, bootstrapKey } = verdict);
});
afterAll(async () => {
  await verdict.stop();
  rmSync(work, { recursive: true, force: true });
});

const verify = (...args: string[]) =>
  runCli(["audit", "verify", ...args], {
    env: { ...isolatedHome(), VERDICT_URL: api.baseUrl, VERDICT_API_KEY: bootstrapKey },
    cwd: work,
  });

async function exportLines(): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${api.baseUrl}/v1/audit-events/export`, {
    headers: { authorization: `Bearer ${bootstrapKey}` },
  });
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** Changes a policy's severity and waits for its audit event. */
async function change(severity: "warning" | "error"): Promise<string> {
  const res = await api.patch("/v1/policies/sql-injection", { severity });
  expect(res.status).toBe(200);
  return (await auditEventOfRequest(api, res.headers.get("x-request-id"))).id;
}

describeAllInOne("audit retention", () => {
  const old: string[] = [];
  const kept: string[] = [];

  it("refuses a retention under 90 days; one set as docs/audit.md shows applies at once, and is an audit event", async () => {
    old.push(await change("warning"), await change("error"));
    offsetMs = 400 * DAY;
    kept.push(await change("warning"), await change("error"));
    expectFieldError(
      await api.patch("/v1/organization", { settings: { audit_retention_days: 30 } }),
      400,
      "settings.audit_retention_days",
      "MIN_SIZE_REQUIRED",
      { min: 90 },
    );
    const doc = readFileSync(join(ROOT, "docs", "audit.md"), "utf8");
    const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf("## Retention")))![1]!;
    // Asynchronously: this process serves the instance, a synchronous child would block it.
    const run = await runCommand("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", block], {
      env: { VERDICT_URL: api.baseUrl, VERDICT_API_KEY: bootstrapKey },
    });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(JSON.parse(out).settings.audit_retention_days).toBe(365);
    expect((await api.get("/v1/organization")).body.settings.audit_retention_days).toBe(365);
    const set = await auditEventMatching(
      api,
      (e) => e.type === "organization.updated" && "settings.audit_retention_days" in (e.data.changes ?? {}),
    );
    expect(set.data.changes!["settings.audit_retention_days"]).toEqual({ before: null, after: 365 });
  });

  it("deleted the events past the retention behind a checkpoint; verify passes from it", async () => {
    const [first, ...events] = await exportLines();
    expect(first!.checkpoint).toMatchObject({ seq: expect.any(Number), hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const ids = events.map((e) => e.id as string);
    for (const id of old) expect(ids).not.toContain(id);
    for (const id of kept) expect(ids).toContain(id);
    const cutoff = clock.now().getTime() - 365 * DAY;
    for (const e of events) expect(Date.parse(e.occurred_at as string)).toBeGreaterThanOrEqual(cutoff);
    expect(events[0]!.seq).toBe(first!.checkpoint.seq + 1);
    expect(events[0]!.prev_hash).toBe(first!.checkpoint.hash);
    // The list reads the same log: the deleted events are gone there too.
    const listed = (await api.get("/v1/audit-events", { query: { limit: 100 } })).body.audit_events as Array<{
      id: string;
    }>;
    expect(listed.map((e) => e.id)).not.toContain(old[0]);

    const res = await verify();
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`audit log verified: ${events.length} events, chain intact`);
    expect(res.stdout).toContain(`from the retention checkpoint: events up to ${first!.checkpoint.seq} were deleted`);
  });

  it("still fails verify on a changed, removed or reordered kept event, or without the checkpoint", async () => {
    expect(
      (
        await runCli(["audit", "export", "--out", "audit.jsonl"], {
          env: { ...isolatedHome(), VERDICT_URL: api.baseUrl, VERDICT_API_KEY: bootstrapKey },
          cwd: work,
        })
      ).code,
    ).toBe(0);
    const [checkpoint, ...events] = readFileSync(join(work, "audit.jsonl"), "utf8").trim().split("\n");
    const check = async (lines: string[]) => {
      writeFileSync(join(work, "edited.jsonl"), lines.join("\n") + "\n");
      const res = await verify("--file", "edited.jsonl", "--json");
      return { code: res.code, ...(JSON.parse(res.stdout) as { ok: boolean; failure?: Record<string, unknown> }) };
    };
    expect(await check([checkpoint!, ...events])).toMatchObject({ code: 0, ok: true });

    const second = JSON.parse(events[1]!) as Record<string, unknown>;
    const changed = [
      checkpoint!,
      events[0]!,
      JSON.stringify({ ...second, target_id: "other-policy" }),
      ...events.slice(2),
    ];
    expect(await check(changed)).toMatchObject({ code: 1, failure: { seq: second.seq, problem: "changed" } });
    expect(await check([checkpoint!, ...events.slice(1)])).toMatchObject({
      code: 1,
      failure: { seq: second.seq, problem: "missing" },
    });
    expect(await check([checkpoint!, events[1]!, events[0]!, ...events.slice(2)])).toMatchObject({
      code: 1,
      failure: { seq: second.seq, problem: "missing" },
    });
    // Without its checkpoint line the kept log reads as one whose first events were removed.
    expect(await check(events)).toMatchObject({ code: 1, failure: { problem: "missing" } });
  });
});
