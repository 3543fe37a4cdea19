// The audit log as a stream to webhooks (audit.recorded) against the real all-in-one process:
// real receivers on 127.0.0.1 verify every message with the standardwebhooks library; the
// messages carry the events as the export does, in one chain @verdict/sdk checks; another
// organization's receiver and a receiver of other events get none; no secret reaches a message.
// Then the log read by target (one object's history) over the API and the CLI, on the same events.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { verifyAuditChain, type ChainedAuditEvent } from "@verdict/sdk";
import { startReceiver, type Receiver } from "../../services/webhooks/test/receiver.js";
import { Api, expectFieldError } from "../support/api.js";
import { isolatedHome, runCli, runDocBlock } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

// Receivers on 127.0.0.1 over http.
const DEV = { VERDICT_WEBHOOK_ALLOW_HTTP: "true", VERDICT_WEBHOOK_ALLOW_PRIVATE: "true" };
// A receiver's own token in its URL, and a secret given at registration: neither may reach the log.
const URL_TOKEN = "tok_9f2c4e1a7b3d5f60";
const GIVEN_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

let v: Verdict;
let op: Api;
let globex: Api;
let siem: Receiver;
let ci: Receiver;
let theirs: Receiver;
let siemId: string;
let ciId: string;

const audited = (r: Receiver) => r.received.filter((m) => m.json.event === "audit.recorded");
const events = (r: Receiver) => audited(r).map((m) => m.json.data as ChainedAuditEvent);

beforeAll(async () => {
  v = await startVerdict({ env: DEV });
  op = new Api(v.url, v.bootstrapKey);
  const other = await op.post("/v1/organizations", { name: "Globex" });
  expect(other.status).toBe(201);
  globex = op.withKey(other.body.api_key.key);
  [siem, ci, theirs] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);

  // docs/audit.md's subscription, as written (the SIEM's address for the example's).
  const doc = readFileSync(join(ROOT, "docs", "audit.md"), "utf8");
  const section = doc.slice(doc.indexOf("## As a stream to webhooks"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  expect(block).toContain("https://siem.example.com/hooks/verdict");
  const out = runDocBlock(block.replace("https://siem.example.com/hooks/verdict", siem.url), {
    env: { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey },
  });
  const created = JSON.parse(out) as { id: string; events: string[]; secret: string };
  expect(created.events).toEqual(["audit.recorded"]);
  siem.secret = created.secret;
  siemId = created.id;

  // Its secret known before its first message (its own registration's event) can arrive.
  theirs.secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
  const hook = await globex.post("/v1/webhooks", {
    url: theirs.url,
    events: ["audit.recorded"],
    secret: theirs.secret,
  });
  expect(hook.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await v?.destroy();
  for (const r of [siem, ci, theirs]) await r?.close();
});

describe("audit.recorded", () => {
  it("delivers each configuration change, signed, in one chain the SDK verifies", async () => {
    // A webhook with a given secret and a token in its URL, subscribed to other events.
    ci.secret = GIVEN_SECRET;
    const created = await op.post("/v1/webhooks", {
      url: `${ci.url}?token=${URL_TOKEN}`,
      events: ["evaluation.completed"],
      secret: GIVEN_SECRET,
    });
    expect(created.status).toBe(201);
    ciId = created.body.id;
    // Three configuration changes, one after the other.
    const changes = [
      await op.patch("/v1/policies/sql-injection", { severity: "warning" }),
      await op.patch("/v1/organization", { settings: { require_evaluation_pass: false } }),
      await op.patch(`/v1/webhooks/${ciId}`, { events: ["evaluation.completed", "finding.updated"] }),
    ];
    for (const c of changes) expect(c.status).toBe(200);

    await eventually(() => expect(audited(siem)).toHaveLength(5), 30_000, 100);
    expect(audited(siem).map((m) => [m.verified, m.verifyError])).toEqual(audited(siem).map(() => [true, undefined]));
    const got = events(siem).sort((a, b) => a.seq - b.seq);
    // The subscription's own registration first, then the changes in the order they were made.
    expect(got.map((e) => [e.type, e.target_id])).toEqual([
      ["webhook.created", siemId],
      ["webhook.created", ciId],
      ["policy.updated", "sql-injection"],
      ["organization.updated", expect.stringMatching(/^org_/)],
      ["webhook.updated", ciId],
    ]);
    expect(got.slice(2).map((e) => e.request_id)).toEqual(changes.map((c) => c.headers.get("x-request-id")));
    expect(got[2]!.data).toMatchObject({ changes: { severity: { after: "warning" } } });
    expect(got[2]!.credential).toMatchObject({ type: "api_key", id: expect.stringMatching(/^key_/) });
    // Consecutive numbers, each linked to the one before, each matching its hash.
    const verdict = verifyAuditChain(got, { start: { seq: got[0]!.seq, prev_hash: got[0]!.prev_hash } });
    expect(verdict).toMatchObject({ ok: true, checked: 5, head: { seq: got[4]!.seq, hash: got[4]!.hash } });
    // Exactly the export's lines.
    const res = await fetch(`${v.url}/v1/audit-events/export`, {
      headers: { authorization: `Bearer ${v.bootstrapKey}` },
    });
    const exported = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ChainedAuditEvent);
    expect(exported.filter((e) => e.seq >= got[0]!.seq).slice(0, 5)).toEqual(got);
    // The delivery log has them, each delivered.
    await eventually(async () => {
      const log = await op.get(`/v1/webhooks/${siemId}/deliveries`);
      const logged = log.body.deliveries.filter((d: { event: string }) => d.event === "audit.recorded");
      expect(logged.map((d: { status: string }) => d.status)).toEqual(got.map(() => "succeeded"));
    });
  });

  it("never carries a webhook's secret or the token in its URL", () => {
    const bodies = audited(siem)
      .map((m) => m.body)
      .join("\n");
    expect(bodies).not.toContain(GIVEN_SECRET);
    expect(bodies).not.toContain(GIVEN_SECRET.slice("whsec_".length));
    expect(bodies).not.toContain(URL_TOKEN);
    expect(bodies).not.toContain(siem.secret!);
    const ciCreated = events(siem).find((e) => e.type === "webhook.created" && e.target_id === ciId)!;
    expect(ciCreated.data).toMatchObject({
      secret: "given",
      changes: { url_origin: { before: null, after: new URL(ci.url).origin } },
    });
  });

  it("goes to no other organization, and not to a webhook of other events", async () => {
    // Globex's receiver works (it got Globex's own event), and got nothing of the operator's.
    await eventually(() => expect(audited(theirs)).toHaveLength(1), 30_000, 100);
    const [own] = events(theirs);
    // Globex's log: its creation and its first key (1, 2), then this webhook.
    expect(own).toMatchObject({ type: "webhook.created", seq: 3 });
    expect(own!.organization_id).not.toBe(events(siem)[0]!.organization_id);
    expect(audited(theirs)[0]!.verified).toBe(true);
    // The webhook of evaluation.completed gets that, and no audit event.
    const evaluation = await op.post("/v1/evaluations", {
      repository: "acme/payments",
      ref: "main",
      files: [{ path: "src/ok.js", content: "export const ok = 1;\n", status: "modified" }],
    });
    expect(evaluation.status).toBe(201);
    await eventually(() => expect(ci.received).toHaveLength(1), 30_000, 100);
    expect(ci.received.map((m) => [m.json.event, m.verified])).toEqual([["evaluation.completed", true]]);
    expect(audited(theirs)).toHaveLength(1);
  });
});

describe("GET /v1/audit-events by target", () => {
  const byTarget = (query: Record<string, string>, client = op) =>
    client.get("/v1/audit-events", { query: { limit: 100, ...query } });

  it("answers one object's history, newest first, and every event about a kind of object", async () => {
    const one = await byTarget({ target_type: "webhook", target_id: ciId });
    expect(one.status).toBe(200);
    expect(one.body.audit_events.map((e: { type: string; target: unknown }) => [e.type, e.target])).toEqual([
      ["webhook.updated", { type: "webhook", id: ciId }],
      ["webhook.created", { type: "webhook", id: ciId }],
    ]);
    const hooks = await byTarget({ target_type: "webhook" });
    expect(hooks.body.audit_events.map((e: { target: { id: string } }) => e.target.id).sort()).toEqual(
      [ciId, ciId, siemId].sort(),
    );
    // An id alone, and the kind that does not match it.
    expect((await byTarget({ target_id: "sql-injection" })).body.audit_events).toEqual([
      expect.objectContaining({ type: "policy.updated", target: { type: "policy", id: "sql-injection" } }),
    ]);
    expect((await byTarget({ target_type: "repository", target_id: "sql-injection" })).body.audit_events).toEqual([]);
    // Another organization sees nothing of this one's objects.
    expect((await byTarget({ target_type: "webhook", target_id: ciId }, globex)).body.audit_events).toEqual([]);
  });

  it("refuses a target that is no name or too long, on the field", async () => {
    expectFieldError(await byTarget({ target_type: "Web Hook" }), 400, "target_type", "INVALID_FORMAT");
    expectFieldError(await byTarget({ target_id: "x".repeat(257) }), 400, "target_id", "MAX_SIZE_EXCEEDED");
  });

  it("is the CLI's audit list --target-type --target-id", async () => {
    const listed = await runCli(["audit", "list", "--target-type", "webhook", "--target-id", ciId, "--json"], {
      env: { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey },
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).audit_events.map((e: { type: string }) => e.type)).toEqual([
      "webhook.updated",
      "webhook.created",
    ]);
  });
});
