// One framework's section: its controls, open violations by control, what was fixed in the
// period, violations silenced in code (suppressed, not fixed), triaged findings, and bypass
// events; what is still to act on with its milestone (remediation target, or an acceptance's
// expiry) as the OSCAL POA&M has it.
import type { Evidence, FrameworkEvidence, TrackedViolation } from "../evidence.js";
import { milestoneOf } from "../milestones.js";
import { COLORS, heading, paragraph, STATUS_LABEL, table, type Doc } from "./layout.js";

/** An open or suppressed finding's remediation target (the POA&M milestone), as a line of its row. */
const target = (v: TrackedViolation) => `Remediation target ${milestoneOf(v)?.date.slice(0, 10) ?? "-"}`;
/** An accepted risk's milestone: the review when the acceptance expires (it reopens then). */
const review = (v: TrackedViolation) => {
  const m = milestoneOf(v);
  return m ? `\nReview by ${m.date.slice(0, 10)}` : "";
};

export function frameworkSection(doc: Doc, evidence: Evidence, fw: FrameworkEvidence): void {
  doc.addPage();
  heading(doc, `${fw.catalog.name} ${fw.catalog.version}`, 20);
  paragraph(
    doc,
    `${fw.coverage.covered} of ${fw.controls.length} controls (${fw.coverage.coverage}%) are covered by enabled policies. Authoritative text: ${fw.catalog.source_url}`,
  );
  heading(doc, "Controls", 13);
  table(
    doc,
    [
      { header: "Control", width: 80 },
      { header: "Title", width: 132 },
      { header: "Covered", width: 45 },
      {
        header: "Result",
        width: 68,
        color: (r) =>
          (
            ({ "Open violations": COLORS.failing, Passed: COLORS.passed, Remediated: COLORS.passed }) as Record<
              string,
              string
            >
          )[r[3]!],
      },
      { header: "Policies", width: 120 },
      { header: "Evals", width: 50 },
    ],
    fw.controls.map((c) => [
      c.control.id,
      c.control.title,
      c.covered ? "Yes" : "No",
      STATUS_LABEL[c.status],
      c.policies.join(", ") || "-",
      String(c.evaluations.length),
    ]),
    "This framework has no controls.",
  );
  heading(doc, "Open violations by control", 13);
  table(
    doc,
    [
      { header: "Control", width: 55 },
      { header: "Policy / rule", width: 100 },
      { header: "Location", width: 140 },
      { header: "Severity", width: 45 },
      { header: "Finding", width: 155 },
    ],
    fw.controls.flatMap((c) =>
      c.open.map((v) => [
        c.control.id,
        `${v.policy_id}\n${v.rule_id}`,
        `${v.repository} (${v.ref})\n${v.file}:${v.line}`,
        v.severity,
        `${v.message}\nLast seen ${v.last_seen.evaluation_id}\n${target(v)}`,
      ]),
    ),
    "No open violations in this period.",
  );
  const fixed = fw.controls.flatMap((c) =>
    c.fixed.map((v) => [
      c.control.id,
      v.policy_id,
      `${v.repository} (${v.ref})\n${v.file}`,
      `${v.fixed_by!.evaluation_id}\n${v.fixed_by!.at.slice(0, 10)}`,
    ]),
  );
  heading(doc, "Fixed in this period", 13);
  table(
    doc,
    [
      { header: "Control", width: 60 },
      { header: "Policy", width: 110 },
      { header: "Location", width: 175 },
      { header: "Fixed by evaluation", width: 150 },
    ],
    fixed,
    "No violation was fixed in this period.",
  );
  heading(doc, "Suppressed in code, not fixed", 13);
  table(
    doc,
    [
      { header: "Control", width: 60 },
      { header: "Policy", width: 110 },
      { header: "Location", width: 175 },
      { header: "Suppressed in evaluation", width: 150 },
    ],
    fw.controls.flatMap((c) =>
      c.suppressed.map((v) => [
        c.control.id,
        v.policy_id,
        `${v.repository} (${v.ref})\n${v.file}:${v.line}`,
        `${v.suppressed_by!.evaluation_id}\n${v.suppressed_by!.at.slice(0, 10)}\n${target(v)}`,
      ]),
    ),
    "No violation was silenced in code in this period.",
  );
  heading(doc, "Triaged: accepted risks and false positives", 13);
  table(
    doc,
    [
      { header: "Control", width: 60 },
      { header: "Policy", width: 100 },
      { header: "Location", width: 150 },
      { header: "Decision", width: 185 },
    ],
    fw.controls.flatMap((c) =>
      c.triaged.map((v) => [
        c.control.id,
        v.policy_id,
        `${v.repository} (${v.ref})\n${v.file}:${v.line}`,
        `${v.status === "accepted_risk" ? `Accepted risk${v.triage!.expires_at ? ` until ${v.triage!.expires_at.slice(0, 10)}` : ""}` : "False positive"}: ${v.triage!.reason}${review(v)}`,
      ]),
    ),
    "No violation was triaged as an accepted risk or a false positive.",
  );
  heading(doc, "Bypass events", 13);
  table(
    doc,
    [
      { header: "Control", width: 55 },
      { header: "Policy / rule", width: 105 },
      { header: "Location", width: 150 },
      { header: "When", width: 65 },
      { header: "Reason", width: 120 },
    ],
    fw.controls.flatMap((c) =>
      c.bypasses.map((b) => [
        c.control.id,
        `${b.policy_id}\n${b.rule_id}`,
        `${b.repository} (${b.ref})\n${b.file}:${b.line}`,
        b.bypassed_at.slice(0, 10),
        b.reason || "(no reason given)",
      ]),
    ),
    "No finding of this framework's policies was bypassed in this period.",
  );
}
