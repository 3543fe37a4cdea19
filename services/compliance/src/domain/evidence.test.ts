import { describe, expect, it } from "@jest/globals";
import { catalogById } from "./catalogs/index.js";
import { frameworkCoverage, percent } from "./coverage.js";
import { trackFindings } from "./findings.js";
import { DIGIT_CATALOG, EVALUATIONS, POLICIES, VIOLATIONS, sampleEvidence } from "../../test/fixtures.js";

describe("coverage", () => {
  it("counts a control covered when an enabled policy maps to it", () => {
    const c = frameworkCoverage(DIGIT_CATALOG, POLICIES);
    expect(c.controls.map((x) => [x.id, x.covered, x.policies])).toEqual([
      ["164.312(a)(1)", true, ["aws-credentials"]],
      // cleartext-http maps here but is disabled.
      ["164.312(e)(1)", false, []],
      ["164.308(a)(1)(ii)(B)", false, []],
    ]);
    expect(c.coverage).toBe(33);
    const enabledAll = POLICIES.map((p) => ({ ...p, enabled: true }));
    expect(frameworkCoverage(DIGIT_CATALOG, enabledAll).covered).toBe(2);
  });

  it("rounds down so that 100% means every control", () => {
    expect(percent(199, 200)).toBe(99);
    expect(percent(0, 0)).toBe(0);
  });
});

describe("evidence", () => {
  it("tracks violations per repository and ref: fixed when a later evaluation no longer reports them", () => {
    const tracked = trackFindings(EVALUATIONS, VIOLATIONS, []);
    const aws = tracked.find((t) => t.policy_id === "aws-credentials")!;
    const sql = tracked.find((t) => t.policy_id === "sql-injection")!;
    expect(aws).toMatchObject({
      status: "fixed",
      fixed_by: { evaluation_id: "eval_02" },
      first_seen: { evaluation_id: "eval_01" },
    });
    expect(sql).toMatchObject({ status: "open", line: 12, last_seen: { evaluation_id: "eval_02" } });
    expect(tracked).toHaveLength(2);
  });

  it("does not call a violation fixed by an evaluation that did not run its policy", () => {
    const later = {
      id: "eval_09",
      repository: "acme/payments",
      ref: "main",
      completed_at: "2026-03-09T00:00:00.000Z",
      passed: true,
      policies: ["aws-credentials"],
    };
    const sql = trackFindings([...EVALUATIONS, later], VIOLATIONS, []).find((t) => t.policy_id === "sql-injection")!;
    expect(sql.status).toBe("open");
  });

  it("classifies each control: passed, remediated, failing, no evidence", () => {
    const ev = sampleEvidence([catalogById("nist-ssdf")!]);
    const byId = new Map(ev.frameworks[0]!.controls.map((c) => [c.control.id, c]));
    expect(byId.get("PW.5.1")).toMatchObject({
      status: "remediated",
      covered: true,
      repositories: ["acme/payments", "acme/web"],
    });
    expect(byId.get("PW.5.1")!.bypasses).toHaveLength(1);
    expect(byId.get("PW.7.2")).toMatchObject({ status: "failing" });
    expect(byId.get("PW.7.2")!.open).toHaveLength(1);
    expect(byId.get("PO.1.1")).toMatchObject({ status: "no-evidence", covered: false, evaluations: [] });
    const passedOnly = sampleEvidence([DIGIT_CATALOG]);
    expect(passedOnly.frameworks[0]!.controls[0]!.status).toBe("remediated");
  });
});
