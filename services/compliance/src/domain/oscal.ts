// OSCAL 1.1.2 JSON documents for one framework's evidence: a catalog (the controls, with the
// policies and detection rules mapped to them as props: 1.1.2 has no mapping model), the
// assessment results, and the plan of action and milestones. Object uuids are v5 (stable between
// reports of the same organization); each document gets a fresh v4 document uuid.
import { v4 as uuidv4 } from "uuid";
import type { Catalog } from "./catalogs/types.js";
import { instants } from "./dateRange.js";
import type { ControlEvidence, ControlStatus, Evidence, FrameworkEvidence, TrackedViolation } from "./evidence.js";
import { clean, prop, stableUuid, type Json } from "./oscalCommon.js";
import { FINDING_RISK, risksOf, until, violationRisk } from "./oscalRisks.js";

export { stableUuid, VERDICT_NS } from "./oscalCommon.js";

export const OSCAL_VERSION = "1.1.2";

export interface OscalContext {
  organizationId: string;
  organizationName: string;
  /** Base of the REST API, e.g. https://verdict.example.com/v1 (evidence links). */
  apiBaseUrl: string;
  /** Fresh document uuids (a seam for tests). */
  newUuid?: () => string;
}

export interface OscalSet {
  catalog: Json;
  assessmentResults: Json;
  poam: Json;
}

const TOKEN = /^(\p{L}|_)(\p{L}|\p{N}|[.\-_])*$/u;

/**
 * An OSCAL token for a framework id. Tokens must start with a letter or underscore and hold only
 * letters, digits, `.`, `-` and `_`: `164.312(a)(1)` becomes `ctl-164.312.a.1`.
 */
export function oscalToken(id: string, prefix = "ctl-"): string {
  let t = id
    .trim()
    .replace(/\(([^)]*)\)/g, ".$1")
    .replace(/[^\p{L}\p{N}._-]+/gu, "-")
    .replace(/^[.-]+|[.-]+$/g, "");
  if (t === "") t = "x";
  if (!TOKEN.test(t)) t = `${prefix}${t}`;
  return t;
}

/** Token per control id of a catalog, unique within it. */
export function controlTokens(catalog: Catalog): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const c of catalog.controls) {
    let t = oscalToken(c.id);
    for (let n = 2; used.has(t); n++) t = `${oscalToken(c.id)}-${n}`;
    used.add(t);
    out.set(c.id, t);
  }
  return out;
}

function metadata(ctx: OscalContext, evidence: Evidence, title: string, catalog: Catalog): Json {
  return {
    title,
    published: evidence.generated_at,
    "last-modified": evidence.generated_at,
    version: `${evidence.report_id}`,
    "oscal-version": OSCAL_VERSION,
    props: [
      prop("report-id", evidence.report_id),
      prop("framework", catalog.id),
      prop("framework-version", catalog.version),
    ],
    roles: [
      { id: "assessor", title: "Assessor (the Verdict evaluation service)" },
      { id: "system-owner", title: "System owner" },
    ],
    parties: [
      {
        uuid: stableUuid("party", ctx.organizationId),
        type: "organization",
        name: clean(ctx.organizationName),
        props: [prop("organization-id", ctx.organizationId)],
      },
      { uuid: stableUuid("party", "verdict"), type: "organization", name: "Verdict code policy evaluation" },
    ],
    "responsible-parties": [
      { "role-id": "system-owner", "party-uuids": [stableUuid("party", ctx.organizationId)] },
      { "role-id": "assessor", "party-uuids": [stableUuid("party", "verdict")] },
    ],
  };
}

function sourceResource(catalog: Catalog): Json {
  return {
    uuid: stableUuid("source", catalog.id),
    title: `${catalog.name} ${catalog.version} (authoritative text)`,
    rlinks: [{ href: catalog.source_url }],
  };
}

export function buildCatalog(ctx: OscalContext, evidence: Evidence, fw: FrameworkEvidence): Json {
  const { catalog } = fw;
  const tokens = controlTokens(catalog);
  const rulesOf = new Map(evidence.policies.map((p) => [p.id, p.rules]));
  const enabled = new Set(evidence.policies.filter((p) => p.enabled).map((p) => p.id));
  const source = sourceResource(catalog);
  const control = (c: ControlEvidence, i: number): Json => {
    const id = tokens.get(c.control.id)!;
    const props: Json[] = [
      { name: "label", value: clean(c.control.id) },
      { name: "sort-id", value: String(i + 1).padStart(4, "0") },
      prop("coverage", c.covered ? "covered" : "not-covered"),
    ];
    for (const p of c.mapped_policies) {
      props.push(prop("policy", p, { class: enabled.has(p) ? "enabled" : "disabled" }));
      for (const r of rulesOf.get(p) ?? []) props.push(prop("detection-rule", `${p}/${r}`));
    }
    const guidance =
      c.mapped_policies.length > 0
        ? `Checked in code by the Verdict policies ${c.mapped_policies.join(", ")}${c.covered ? "" : " (none of them enabled)"}.`
        : "No Verdict policy checks this control in code; it needs other evidence.";
    return {
      id,
      title: clean(c.control.title),
      props,
      links: [{ href: `#${source.uuid}`, rel: "reference" }],
      parts: [
        { id: `${id}_smt`, name: "statement", prose: clean(c.control.title) },
        { id: `${id}_gdn`, name: "guidance", prose: guidance },
      ],
    };
  };
  const groups = new Map<string, Json[]>();
  const loose: Json[] = [];
  fw.controls.forEach((c, i) => {
    if (c.control.group) {
      const list = groups.get(c.control.group) ?? [];
      list.push(control(c, i));
      groups.set(c.control.group, list);
    } else loose.push(control(c, i));
  });
  const controlIds = new Set(tokens.values());
  const groupJson = [...groups].map(([name, controls]) => {
    let gid = oscalToken(name, "grp-");
    if (controlIds.has(gid)) gid = `grp-${gid}`;
    return { id: gid, title: clean(name), props: [{ name: "label", value: clean(name) }], controls };
  });
  return {
    catalog: {
      uuid: (ctx.newUuid ?? uuidv4)(),
      metadata: metadata(
        ctx,
        evidence,
        `${catalog.name} ${catalog.version}: controls and the Verdict policies that check them`,
        catalog,
      ),
      ...(groupJson.length > 0 ? { groups: groupJson } : {}),
      ...(loose.length > 0 ? { controls: loose } : {}),
      "back-matter": { resources: [source] },
    },
  };
}

interface Parts {
  observations: Json[];
  risks: Json[];
  observationOf: Map<string, string>;
}

function evaluationObservations(ctx: OscalContext, evidence: Evidence, fw: FrameworkEvidence): Parts {
  const used = new Set(fw.controls.flatMap((c) => c.evaluations));
  for (const c of fw.controls) for (const b of c.bypasses) used.add(b.evaluation_id);
  const observationOf = new Map<string, string>();
  const observations: Json[] = [];
  for (const e of evidence.evaluations) {
    if (!used.has(e.id)) continue;
    const uuid = stableUuid("observation", evidence.organization_id, fw.catalog.id, e.id);
    observationOf.set(e.id, uuid);
    const checked = fw.controls.filter((c) => c.evaluations.includes(e.id)).map((c) => c.control.id);
    observations.push({
      uuid,
      title: clean(`Evaluation ${e.id} of ${e.repository} at ${e.ref}`),
      description: clean(
        `Verdict evaluated a change of ${e.repository} (ref ${e.ref}) with the policies ${e.policies.join(", ") || "(none)"}: ${e.passed ? "passed" : "failed"}. Controls checked: ${checked.join(", ") || "none of this framework's"}.`,
      ),
      props: [
        prop("evaluation-id", e.id),
        prop("repository", e.repository),
        prop("ref", e.ref),
        prop("result", e.passed ? "passed" : "failed"),
      ],
      methods: ["TEST"],
      types: ["finding"],
      "relevant-evidence": [
        {
          href: `${ctx.apiBaseUrl}/evaluations/${e.id}`,
          description: "The evaluation in Verdict's API: files checked, violations, policies.",
        },
      ],
      collected: e.completed_at,
    });
  }
  return { observations, risks: [], observationOf };
}

/** OSCAL's reason for a finding's state: pass, fail, or other (no evidence either way). */
function findingReason(status: ControlStatus): string {
  return status === "failing" ? "fail" : status === "no-evidence" ? "other" : "pass";
}

function noEvidenceDescription(evidence: Evidence, c: ControlEvidence): string {
  return `No evidence between ${evidence.range.start} and ${evidence.range.end}: no evaluation read a file that the enabled policies ${c.policies.join(", ")} could apply to, so nothing shows the control operating.`;
}

export function buildAssessmentResults(ctx: OscalContext, evidence: Evidence, fw: FrameworkEvidence): Json {
  const tokens = controlTokens(fw.catalog);
  const { observations, observationOf } = evaluationObservations(ctx, evidence, fw);
  const { risks, byControl } = risksOf(evidence, fw, observationOf);
  const apResource = stableUuid("assessment-plan", evidence.organization_id, fw.catalog.id);
  const findings: Json[] = [];
  for (const c of fw.controls) {
    // A control no policy covers has nothing to report; a covered one without evidence is said so.
    if (c.status === "no-evidence" && !c.covered) continue;
    const satisfied = c.status === "passed" || c.status === "remediated";
    const obs = c.evaluations.map((e) => observationOf.get(e)).filter((x): x is string => !!x);
    const riskIds = byControl.get(c.control.id) ?? [];
    findings.push({
      uuid: stableUuid("finding", evidence.organization_id, fw.catalog.id, c.control.id),
      title: clean(`${c.control.id}: ${c.control.title}`),
      description: clean(
        c.status === "no-evidence"
          ? noEvidenceDescription(evidence, c)
          : `${c.evaluations.length} evaluation(s) of ${c.repositories.join(", ") || "no repository"} ran the policies ${c.mapped_policies.join(", ")} between ${evidence.range.start} and ${evidence.range.end}: ${c.open.length} open violation(s), ${c.fixed.length} fixed, ${c.suppressed.length} suppressed in code, ${c.triaged.length} triaged (false positive or accepted risk), ${c.bypasses.length} bypass(es).`,
      ),
      props: [prop("control-status", c.status), prop("coverage", c.covered ? "covered" : "not-covered")],
      target: {
        type: "statement-id",
        "target-id": `${tokens.get(c.control.id)}_smt`,
        status: { state: satisfied ? "satisfied" : "not-satisfied", reason: findingReason(c.status) },
      },
      ...(obs.length > 0 ? { "related-observations": obs.map((o) => ({ "observation-uuid": o })) } : {}),
      ...(riskIds.length > 0 ? { "related-risks": riskIds.map((r) => ({ "risk-uuid": r })) } : {}),
    });
  }
  const { from, to } = instants(evidence.range);
  const covered = fw.controls.filter((c) => c.covered).length;
  const result: Json = {
    uuid: stableUuid("result", evidence.organization_id, evidence.report_id, fw.catalog.id),
    title: clean(`${fw.catalog.name}: code policy evidence ${evidence.range.start} to ${evidence.range.end}`),
    description: clean(
      `Controls of ${fw.catalog.name} ${fw.catalog.version} reviewed against Verdict's evaluations: ${covered} of ${fw.controls.length} covered by enabled policies; ${fw.counts.passed} passed every check, ${fw.counts.remediated} had every violation fixed, ${fw.counts.failing} have open violations, ${fw.counts["no-evidence"]} have no evidence in the range (no evaluation read a file their enabled policies could apply to).`,
    ),
    start: from,
    end: to,
    props: [prop("report-id", evidence.report_id)],
    "reviewed-controls": {
      "control-selections": [
        { "include-controls": fw.controls.map((c) => ({ "control-id": tokens.get(c.control.id) })) },
      ],
    },
    ...(observations.length > 0 ? { observations } : {}),
    ...(risks.length > 0 ? { risks } : {}),
    ...(findings.length > 0 ? { findings } : {}),
  };
  return {
    "assessment-results": {
      uuid: (ctx.newUuid ?? uuidv4)(),
      metadata: metadata(ctx, evidence, `${fw.catalog.name}: assessment results from Verdict`, fw.catalog),
      "import-ap": { href: `#${apResource}` },
      results: [result],
      "back-matter": {
        resources: [
          {
            uuid: apResource,
            title: "Assessment plan: continuous code policy evaluation by Verdict",
            description: clean(
              `Every change sent to Verdict is evaluated against the organization's enabled policies; each policy maps to controls of ${fw.catalog.name}. The catalog of controls with their mapped policies and detection rules is the companion catalog document of this export.`,
            ),
            rlinks: [{ href: `${ctx.apiBaseUrl}/compliance/frameworks/${fw.catalog.id}` }],
          },
          sourceResource(fw.catalog),
        ],
      },
    },
  };
}

function poamRemediation(v: TrackedViolation): string {
  switch (v.status) {
    case "open":
      return "open";
    case "fixed":
      return `completed in ${v.fixed_by!.evaluation_id}`;
    case "suppressed":
      return `not done: suppressed in code in ${v.suppressed_by!.evaluation_id}, still present`;
    case "accepted_risk":
      return `not done: risk accepted${until(v)} (${v.triage!.reason})`;
    case "false_positive":
      return `none: marked a false positive (${v.triage!.reason})`;
  }
}

export function buildPoam(ctx: OscalContext, evidence: Evidence, fw: FrameworkEvidence): Json {
  const { observations, observationOf } = evaluationObservations(ctx, evidence, fw);
  const risks: Json[] = [];
  const items: Json[] = [];
  for (const c of fw.controls) {
    for (const v of [...c.open, ...c.fixed, ...c.suppressed, ...c.triaged]) {
      const risk = violationRisk(evidence, fw, c, v, observationOf);
      risks.push(risk);
      const obs = (risk["related-observations"] as Json[] | undefined) ?? [];
      items.push({
        uuid: stableUuid("poam-item", evidence.organization_id, fw.catalog.id, c.control.id, v.key),
        title: clean(`${c.control.id}: ${v.policy_id} in ${v.repository} ${v.file}`),
        description: clean(
          `${v.message} (${v.file}:${v.line}, ${v.repository} at ${v.ref}). Remediation: ${poamRemediation(v)}.`,
        ),
        props: [
          prop("control-id", c.control.id),
          prop("policy", v.policy_id, { class: "assigned-policy" }),
          prop("remediation-status", FINDING_RISK[v.status].remediation),
          prop("severity", v.severity),
          prop("repository", v.repository),
        ],
        ...(obs.length > 0 ? { "related-observations": obs } : {}),
        "related-risks": [{ "risk-uuid": risk.uuid }],
      });
    }
  }
  if (items.length === 0) {
    // The model needs at least one item; say plainly that nothing is open.
    items.push({
      uuid: stableUuid("poam-item", evidence.organization_id, fw.catalog.id, "none"),
      title: "No violations in the reporting period",
      description: clean(
        `No evaluation between ${evidence.range.start} and ${evidence.range.end} reported a violation of a policy mapped to ${fw.catalog.name}.`,
      ),
      props: [prop("remediation-status", "none")],
    });
  }
  return {
    "plan-of-action-and-milestones": {
      uuid: (ctx.newUuid ?? uuidv4)(),
      metadata: metadata(ctx, evidence, `${fw.catalog.name}: plan of action and milestones from Verdict`, fw.catalog),
      "system-id": {
        "identifier-type": "https://ietf.org/rfc/rfc4122",
        id: stableUuid("system", evidence.organization_id),
      },
      ...(observations.length > 0 ? { observations } : {}),
      ...(risks.length > 0 ? { risks } : {}),
      "poam-items": items,
      "back-matter": { resources: [sourceResource(fw.catalog)] },
    },
  };
}

export function buildOscalSet(ctx: OscalContext, evidence: Evidence, fw: FrameworkEvidence): OscalSet {
  return {
    catalog: buildCatalog(ctx, evidence, fw),
    assessmentResults: buildAssessmentResults(ctx, evidence, fw),
    poam: buildPoam(ctx, evidence, fw),
  };
}
