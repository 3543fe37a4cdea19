import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TOPICS, type CloudEvent, type EvaluationCompletedData, type PolicyViolationData } from "@verdict/bus";
import type { evaluationV1 } from "@verdict/proto";
import { withoutOutbox } from "@verdict/outbox";
import { ManualClock, startEvaluationHarness, type EvaluationHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";
import { encodeCursor } from "./domain/listQuery.js";

const ORG = "org_eval";
const OTHER_ORG = "org_other";
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const PASSWORD = "hunter2-but-longer";
const KEY_MATERIAL = "MIIEowIBAAKCAQEAvRHnL0sJ4xD2";

const clock = new ManualClock();
let h: EvaluationHarness;
const completed: CloudEvent<EvaluationCompletedData>[] = [];
const violations: CloudEvent<PolicyViolationData>[] = [];

beforeAll(async () => {
  h = await startEvaluationHarness({ clock });
  await h.policy.bus.subscribe<EvaluationCompletedData>(
    TOPICS.evaluationCompleted,
    "test",
    async (e) => void completed.push(e),
  );
  await h.policy.bus.subscribe<PolicyViolationData>(
    TOPICS.policyViolation,
    "test",
    async (e) => void violations.push(e),
  );
});
afterAll(() => h.stop());

type File = evaluationV1.File;
const file = (path: string, content: string, status = "modified"): File => ({
  path,
  content: Buffer.from(content, "utf8"),
  status,
});

function request(overrides: Partial<evaluationV1.CreateEvaluationRequest> = {}): evaluationV1.CreateEvaluationRequest {
  return {
    organization_id: ORG,
    repository: "acme/web",
    ref: "refs/heads/feature",
    base_ref: "main",
    files: [file("src/clean.ts", "export const sum = (a: number, b: number) => a + b;\n")],
    policies: [],
    bypass_reason: "",
    request_id: "",
    ...overrides,
  };
}

async function create(overrides: Partial<evaluationV1.CreateEvaluationRequest> = {}): Promise<evaluationV1.Evaluation> {
  clock.advance(1000);
  return (await h.client.createEvaluation(request(overrides))).evaluation!;
}

const leaky = [
  file("config/aws.ts", `export const config = {\n  accessKeyId: "${AWS_KEY}",\n};\n`),
  file("deploy/id_rsa", `-----BEGIN RSA PRIVATE KEY-----\n${KEY_MATERIAL}\n-----END RSA PRIVATE KEY-----\n`),
  file("app/settings.py", `DEBUG = False\npassword = "${PASSWORD}"  # ${PASSWORD}\n`),
  file("old/secrets.txt", `password = "${PASSWORD}"`, "removed"),
];

describe("creating an evaluation", () => {
  it("answers a repeated request key with the evaluation the first request made, within its organization only", async () => {
    const first = await create({ files: leaky, request_id: "chk_repeat" });
    const again = await create({ files: leaky, request_id: "chk_repeat" });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ status: "completed", passed: false });
    // Another key, or the same key in another organization, is another request.
    expect((await create({ files: leaky, request_id: "chk_other" })).id).not.toBe(first.id);
    const elsewhere = await create({ organization_id: OTHER_ORG, files: leaky, request_id: "chk_repeat" });
    expect(elsewhere.id).not.toBe(first.id);
    // Without a key, every request is an evaluation of its own.
    expect((await create({ files: leaky })).id).not.toBe((await create({ files: leaky })).id);
  });

  it("reports secrets with positions, policy details and masked snippets, and fails", async () => {
    const evaluation = await create({ files: leaky });
    expect(evaluation).toMatchObject({
      status: "completed",
      repository: "acme/web",
      ref: "refs/heads/feature",
      base_ref: "main",
      passed: false,
      summary: { total_files: 4, total_violations: 3, errors: 3, warnings: 0 },
    });
    expect(evaluation.id).toMatch(/^eval_[0-9a-z]{26}$/);
    expect(Date.parse(evaluation.completed_at!)).toBeGreaterThanOrEqual(Date.parse(evaluation.created_at));
    expect(evaluation.violations).toEqual([
      {
        id: expect.stringMatching(/^viol_[0-9a-z]{26}$/),
        policy_id: "aws-credentials",
        rule_id: "aws-access-key-id",
        severity: "error",
        file: "config/aws.ts",
        line: 2,
        column: 17,
        message: "AWS access key id found in source code",
        code_snippet: 'accessKeyId: "AKIA****",',
        suggestion: expect.stringMatching(/rotate this key/),
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
        // A rule a provider can verify, in an organization that has live verification off.
        verification: "not_checked",
      },
      expect.objectContaining({
        policy_id: "private-keys",
        file: "deploy/id_rsa",
        line: 1,
        column: 1,
        code_snippet: "-----BEGIN RSA PRIVATE KEY-----",
      }),
      expect.objectContaining({
        policy_id: "hardcoded-credentials",
        file: "app/settings.py",
        line: 2,
        column: 1,
        code_snippet: 'password = "hunt****"  # hunt****',
      }),
    ]);
  });

  it("never lets a full secret out: not in the response, the stored document or the events", async () => {
    const evaluation = await create({ files: leaky });
    const stored = await h.repo.findDoc(ORG, evaluation.id);
    await eventually(() => expect(completed.some((e) => e.data.evaluation_id === evaluation.id)).toBe(true));
    const events = [...completed, ...violations].filter((e) => JSON.stringify(e).includes(evaluation.id));
    for (const json of [JSON.stringify(evaluation), JSON.stringify(stored), JSON.stringify(events)]) {
      expect(json).not.toContain(AWS_KEY);
      expect(json).not.toContain(PASSWORD);
      expect(json).not.toContain(KEY_MATERIAL);
    }
    // File contents are never stored.
    expect(JSON.stringify(stored)).not.toContain("DEBUG = False");
  });

  it("passes a clean change, and passes with warnings only", async () => {
    const clean = await create();
    expect(clean).toMatchObject({
      passed: true,
      violations: [],
      summary: { total_files: 1, total_violations: 0, errors: 0, warnings: 0 },
    });
    const warned = await create({ files: [file("src/run.js", "run(eval(input));")] });
    expect(warned).toMatchObject({ passed: true, summary: { total_violations: 1, errors: 0, warnings: 1 } });
    expect(warned.violations[0]).toMatchObject({ policy_id: "dangerous-eval", severity: "warning", column: 5 });
  });

  it("runs only the named policies", async () => {
    const evaluation = await create({ files: leaky, policies: ["private-keys"] });
    expect(evaluation.violations.map((v) => v.policy_id)).toEqual(["private-keys"]);
  });

  it("applies a policy change to the very next evaluation and keeps applying it", async () => {
    const org = "org_policy_changes";
    const evalFile = [file("src/run.js", "run(eval(input));")];
    const severityNow = async () =>
      (await create({ organization_id: org, files: evalFile })).violations.map((v) => v.severity);
    expect(await severityNow()).toEqual(["warning"]);
    expect(await severityNow()).toEqual(["warning"]);
    await h.policy.client.updatePolicy({ organization_id: org, policy_id: "dangerous-eval", severity: "error" });
    // No waiting for policy.changed: the version the policy service answers has moved on.
    expect(await severityNow()).toEqual(["error"]);
    expect(await severityNow()).toEqual(["error"]);
    await h.policy.client.updatePolicy({ organization_id: org, policy_id: "dangerous-eval", enabled: false });
    expect(await severityNow()).toEqual([]);
    await h.policy.client.updatePolicy({
      organization_id: org,
      policy_id: "dangerous-eval",
      enabled: true,
      severity: "warning",
    });
    expect(await severityNow()).toEqual(["warning"]);
  });

  it("passes unknown policy errors from the policy service through unchanged", async () => {
    await expect(create({ policies: ["no-such-policy", "aws-credentials"] })).rejects.toMatchObject({
      kind: "unprocessable",
      code: "VALIDATION_FAILED",
      details: { errors: [{ field: "policies[0]", code: "INVALID_ENUM", message: "Unknown policy 'no-such-policy'" }] },
    });
  });

  it("rejects malformed requests with field paths", async () => {
    await expect(
      create({ files: [file("a.txt", "ok"), file("big.txt", "x".repeat(1_048_577))] }),
    ).rejects.toMatchObject({
      kind: "validation",
      details: {
        errors: [{ field: "files[1].content", code: "MAX_SIZE_EXCEEDED", max: 1048576, message: expect.any(String) }],
      },
    });
    await expect(create({ repository: "not a repo" })).rejects.toMatchObject({
      kind: "validation",
      details: { errors: [expect.objectContaining({ field: "repository", code: "INVALID_FORMAT" })] },
    });
  });

  it("keeps at most 1000 violations while the summary counts them all", async () => {
    // (ordinary line lengths: a one-line file this size would be skipped as minified)
    const evaluation = await create({
      files: [file("bundle.js", "eval(a);\n".repeat(700)), file("more.js", `${"eval(b); ".repeat(8)}\n`.repeat(100))],
    });
    expect(evaluation.summary).toEqual({
      total_files: 2,
      total_violations: 1500,
      errors: 0,
      warnings: 1500,
      suppressed: 0,
      skipped_files: 0,
    });
    expect(evaluation.violations).toHaveLength(1000);
    // the 300th match of more.js: line 38, the 4th on its line
    expect(evaluation.violations[999]).toMatchObject({ file: "more.js", line: 38, column: 1 + 9 * 3 });
  });

  it("publishes evaluation.completed and one policy.violation per violation", async () => {
    const evaluation = await create({ repository: "acme/events", files: leaky });
    await eventually(() => expect(violations.filter((e) => e.data.evaluation_id === evaluation.id)).toHaveLength(3));
    const event = completed.find((e) => e.data.evaluation_id === evaluation.id)!;
    expect(event).toMatchObject({
      source: "/evaluation",
      subject: evaluation.id,
      data: {
        organization_id: ORG,
        evaluation_id: evaluation.id,
        repository: "acme/events",
        ref: "refs/heads/feature",
        passed: false,
        completed_at: evaluation.completed_at,
        summary: evaluation.summary,
      },
    });
    const published = violations.filter((e) => e.data.evaluation_id === evaluation.id);
    expect(published.map((e) => e.data.violation)).toEqual(evaluation.violations);
    expect(published[0]!.data).toMatchObject({ organization_id: ORG, repository: "acme/events" });
  });

  it("updates the connected repository's last evaluation in the policy service", async () => {
    await h.policy.client.connectRepository({ organization_id: ORG, provider: "github", name: "acme/tracked" });
    const evaluation = await create({ repository: "acme/tracked" });
    await eventually(async () => {
      const { repositories } = await h.policy.client.listRepositories({ organization_id: ORG });
      expect(repositories.find((r) => r.name === "acme/tracked")!.last_evaluation).toBe(evaluation.completed_at);
    });
  });
});

describe("reading evaluations", () => {
  it("gets an evaluation by id, only within its organization", async () => {
    const evaluation = await create({ files: leaky });
    const got = await h.client.getEvaluation({ organization_id: ORG, evaluation_id: evaluation.id });
    expect(got.evaluation).toEqual(evaluation);
    await expect(
      h.client.getEvaluation({ organization_id: OTHER_ORG, evaluation_id: evaluation.id }),
    ).rejects.toMatchObject({
      kind: "not_found",
      code: "RESOURCE_NOT_FOUND",
      details: { resource_type: "evaluation", resource_id: evaluation.id },
    });
    await expect(
      h.client.getEvaluation({ organization_id: ORG, evaluation_id: "eval_01jzzzzzzzzzzzzzzzzzzzzzzz" }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });

  describe("listing", () => {
    const ORG_LIST = "org_list";
    const created: evaluationV1.Evaluation[] = [];
    let middle: string;

    beforeAll(async () => {
      // 9 evaluations a second apart: every third one fails, repositories alternate.
      for (let i = 0; i < 9; i++) {
        if (i === 4) middle = clock.advance(500).toISOString();
        created.push(
          await create({
            organization_id: ORG_LIST,
            repository: i % 2 ? "acme/odd" : "acme/even",
            files: i % 3 === 0 ? leaky : [file("ok.ts", "const ok = true;")],
          }),
        );
      }
      await create({ organization_id: OTHER_ORG });
    });

    const list = (req: Partial<evaluationV1.ListEvaluationsRequest> = {}) =>
      h.client.listEvaluations({ organization_id: ORG_LIST, limit: 0, ...req });
    const newestFirst = () => created.map((e) => e.id).reverse();

    it("lists newest first, default page size, only the organization's own", async () => {
      const page = await list();
      expect(page.evaluations.map((e) => e.id)).toEqual(newestFirst());
      expect(page).toMatchObject({ has_more: false });
      expect(page.next_cursor).toBeUndefined();
    });

    it("pages through more than three pages with a cursor", async () => {
      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
        pages.push(page.evaluations.length);
        seen.push(...page.evaluations.map((e) => e.id));
        if (!page.has_more) {
          expect(page.next_cursor).toBeUndefined();
          break;
        }
        expect(page.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        cursor = page.next_cursor;
      }
      expect(pages).toEqual([2, 2, 2, 2, 1]);
      expect(seen).toEqual(newestFirst());
    });

    it("filters by repository, passed, status and time range", async () => {
      const ids = async (req: Partial<evaluationV1.ListEvaluationsRequest>) =>
        (await list(req)).evaluations.map((e) => e.id);
      const expected = (pick: (e: evaluationV1.Evaluation, i: number) => boolean) =>
        created
          .filter(pick)
          .map((e) => e.id)
          .reverse();
      expect(await ids({ repository: "acme/odd" })).toEqual(expected((_, i) => i % 2 === 1));
      expect(await ids({ passed: false })).toEqual(expected((_, i) => i % 3 === 0));
      expect(await ids({ passed: true, repository: "acme/even" })).toEqual(
        expected((_, i) => i % 3 !== 0 && i % 2 === 0),
      );
      expect(await ids({ status: "completed" })).toEqual(newestFirst());
      expect(await ids({ status: "pending" })).toEqual([]);
      expect(await ids({ since: middle })).toEqual(expected((_, i) => i >= 4));
      expect(await ids({ until: middle })).toEqual(expected((_, i) => i < 4));
      // since is inclusive, until exclusive.
      const third = created[2]!.created_at;
      expect(await ids({ since: third, until: created[3]!.created_at })).toEqual([created[2]!.id]);
    });

    it("rejects bad cursors, limits, statuses and timestamps", async () => {
      const rejected = (
        req: Partial<evaluationV1.ListEvaluationsRequest>,
        field: string,
        code: string,
        kind = "validation",
      ) =>
        expect(list(req)).rejects.toMatchObject({
          kind,
          details: { errors: [expect.objectContaining({ field, code })] },
        });
      // a cursor the API did not issue is a rule the REST schema cannot express: 422
      await rejected({ cursor: "not-a-cursor" }, "cursor", "INVALID_FORMAT", "unprocessable");
      await rejected(
        { cursor: Buffer.from('{"v":1,"id":"repo_x"}').toString("base64url") },
        "cursor",
        "INVALID_FORMAT",
        "unprocessable",
      );
      await rejected({ cursor: "%%%" }, "cursor", "INVALID_FORMAT", "unprocessable");
      await rejected({ limit: 101 }, "limit", "MAX_SIZE_EXCEEDED");
      await rejected({ limit: -1 }, "limit", "MIN_SIZE_REQUIRED");
      await rejected({ status: "done" }, "status", "INVALID_ENUM");
      await rejected({ since: "yesterday" }, "since", "INVALID_FORMAT");
      await rejected({ until: "2026-01-01T10:00:00" }, "until", "INVALID_FORMAT");
    });

    it("accepts a cursor from another page size and keeps pages stable", async () => {
      const page = await list({ limit: 3, cursor: encodeCursor(created[5]!.id) });
      expect(page.evaluations.map((e) => e.id)).toEqual([created[4]!.id, created[3]!.id, created[2]!.id]);
      expect(page.has_more).toBe(true);
    });
  });
});

describe("deleting evaluations", () => {
  it("deletes, then answers deleted (410) on get and delete, and hides it from lists", async () => {
    const evaluation = await create({ organization_id: "org_delete", files: leaky });
    const req = { organization_id: "org_delete", evaluation_id: evaluation.id };
    await expect(h.client.deleteEvaluation({ ...req, organization_id: OTHER_ORG })).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(await h.client.deleteEvaluation(req)).toEqual({});
    await expect(h.client.getEvaluation(req)).rejects.toMatchObject({
      kind: "deleted",
      code: "RESOURCE_DELETED",
      details: { resource_type: "evaluation", resource_id: evaluation.id },
    });
    await expect(h.client.deleteEvaluation(req)).rejects.toMatchObject({ kind: "deleted" });
    expect((await h.client.listEvaluations({ organization_id: "org_delete", limit: 0 })).evaluations).toEqual([]);
    // Only a tombstone is left: no violations, no repository, no results.
    const stored = await h.repo.findDoc("org_delete", evaluation.id);
    // (The outbox's revision stays: it guards writes of events still to be published.)
    expect(withoutOutbox(stored!)).toEqual({
      id: evaluation.id,
      organization_id: "org_delete",
      deleted_at: expect.any(String),
    });
  });

  it("answers not found for unknown ids", async () => {
    await expect(h.client.deleteEvaluation({ organization_id: ORG, evaluation_id: "eval_nope" })).rejects.toMatchObject(
      {
        kind: "not_found",
        details: { resource_type: "evaluation", resource_id: "eval_nope" },
      },
    );
  });
});
