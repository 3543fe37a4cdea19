// Finding states: one model for every report (PDF, OSCAL) and, later, the findings API.
//
// A finding is one thing the engine found in one repository and ref, identified by the engine's
// fingerprint (DESIGN.md, "One fingerprint": policy, rule, path and a digest of the matched
// value, so it survives line moves and is new when the secret changes). Each evaluation of that
// repository and ref which ran the finding's policy *sees* it in one of two ways, or not at all:
// - reported: it is a violation of that evaluation;
// - suppressed: an inline verdict-ignore comment (or a bypassed push) silenced it there; the code
//   still has it;
// - absent: neither.
// Its state follows from the latest of these evaluations: *open* when the latest sighting was a
// report and no later evaluation ran its policy without seeing it; *suppressed* when the latest
// sighting was a suppression (never *fixed*: that was the defect of issue 30); *fixed* when an
// evaluation after the latest sighting ran its policy over the finding's file and did not see it
// (an evaluation of other files proves nothing about it).
//
// Triage overrides an open or suppressed finding (never a fixed one: it is gone): a member marks
// it a *false positive* or an *accepted risk* with a reason, for every ref of the repository
// (same fingerprint). An accepted risk has an expiry, after which the finding is what it would be
// without the triage again (it reopens). Marking it "open" takes the triage back.
//
// Records stored before suppressions carried fingerprints (and violations before violations did)
// have an empty fingerprint: they are matched by location (policy, rule, path) instead.
import { createHash } from "node:crypto";
import type { BypassFact, EvaluationFact, ViolationFact } from "./facts.js";

export type FindingStatus = "open" | "fixed" | "suppressed" | "false_positive" | "accepted_risk";

/** A member's decision about a finding, for every ref of its repository. */
export interface TriageFact {
  repository: string;
  /** The finding's identity (findingIdentity()): its fingerprint, or its location for older records. */
  identity: string;
  state: "false_positive" | "accepted_risk";
  reason: string;
  /** An accepted risk's expiry (ISO 8601); after it the triage no longer applies. */
  expires_at?: string;
  updated_at: string;
}

export interface Sighting {
  evaluation_id: string;
  at: string;
}

export interface TrackedFinding {
  /** Stable identity across evaluations and reports: repository, ref and fingerprint (or location). */
  key: string;
  /** The engine's fingerprint; empty for records stored before fingerprints. */
  fingerprint: string;
  repository: string;
  ref: string;
  policy_id: string;
  rule_id: string;
  file: string;
  /** Where it was last seen. */
  line: number;
  severity: string;
  message: string;
  first_seen: Sighting;
  last_seen: Sighting;
  status: FindingStatus;
  /** Whether an evaluation ever reported it as a violation (else it was suppressed from the start). */
  reported: boolean;
  /** The first evaluation after the last sighting that ran its policy without seeing it. */
  fixed_by?: Sighting;
  /** The suppression of its latest sighting, when it is suppressed. */
  suppressed_by?: Sighting & { reason: string };
  /** The triage in force, when it is a false positive or an accepted risk. */
  triage?: TriageFact;
}

interface Location {
  policy_id: string;
  rule_id: string;
  file: string;
}

const locationOf = (v: Location) => [v.policy_id, v.rule_id, v.file].join("\u0000");

/** A finding's identity within its repository and ref: what triage records name. */
export const identityOf = (v: Location & { fingerprint?: string }) =>
  v.fingerprint ? `fp\u0000${v.fingerprint}` : `loc\u0000${locationOf(v)}`;

/** A finding's id in the API: `fnd_` and a digest of its repository, ref and identity (stable). */
export function findingId(f: { repository: string; ref: string } & Location & { fingerprint?: string }): string {
  const digest = createHash("sha256")
    .update([f.repository, f.ref, identityOf(f)].join("\u0000"))
    .digest("hex");
  return `fnd_${digest.slice(0, 32)}`;
}

/**
 * Whether evaluation `e` read `file`: only then can its silence mean the finding is gone. An
 * evaluation of a later change that did not touch the file (a push of other files, the next pull
 * request) says nothing about it. Evaluations recorded before their paths were (no
 * `scanned_paths`) are taken as having read it, as before.
 */
const readFile = (e: EvaluationFact, file: string) => !e.scanned_paths || e.scanned_paths.includes(file);

/** Completion order (ids break ties). */
export const byTime = (a: { completed_at: string; id: string }, b: { completed_at: string; id: string }) =>
  a.completed_at < b.completed_at ? -1 : a.completed_at > b.completed_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const later = (a: Sighting, b: Sighting) =>
  byTime({ completed_at: a.at, id: a.evaluation_id }, { completed_at: b.at, id: b.evaluation_id }) > 0;

type Kind = "reported" | "suppressed";

/** What one evaluation saw: by identity, and by location (for records without a fingerprint). */
interface Seen {
  byIdentity: Map<string, Kind>;
  /** Sightings without a fingerprint, by location. */
  unprinted: Map<string, Kind>;
  /** Every sighting, by location. */
  anywhere: Map<string, Kind>;
}

function see(seen: Map<string, Seen>, evaluationId: string, v: Location & { fingerprint?: string }, kind: Kind) {
  const s = seen.get(evaluationId) ?? { byIdentity: new Map(), unprinted: new Map(), anywhere: new Map() };
  seen.set(evaluationId, s);
  // A value both reported and suppressed in one evaluation (twice in a file) is reported.
  const put = (m: Map<string, Kind>, k: string) => {
    if (m.get(k) !== "reported") m.set(k, kind);
  };
  put(s.byIdentity, identityOf(v));
  put(s.anywhere, locationOf(v));
  if (!v.fingerprint) put(s.unprinted, locationOf(v));
}

/**
 * How evaluation `s` saw finding `f`, if it did: by fingerprint; by location when either side has
 * none (a fingerprinted finding is not seen by another value at its location: a new secret).
 */
function sawAs(s: Seen | undefined, f: TrackedFinding): Kind | undefined {
  if (!s) return undefined;
  const loc = locationOf(f);
  return s.byIdentity.get(identityOf(f)) ?? s.unprinted.get(loc) ?? (f.fingerprint ? undefined : s.anywhere.get(loc));
}

/**
 * Every finding of the evaluations (completed, any order) with its state, from their violations
 * and suppressions; sorted by key.
 */
export function trackFindings(
  evaluations: EvaluationFact[],
  violations: ViolationFact[],
  bypasses: BypassFact[],
  triage: { facts: TriageFact[]; now: string } = { facts: [], now: "" },
): TrackedFinding[] {
  const decisions = new Map(triage.facts.map((t) => [`${t.repository}\u0000${t.identity}`, t]));
  const evals = new Map(evaluations.map((e) => [e.id, e]));
  const streams = new Map<string, EvaluationFact[]>();
  for (const e of [...evaluations].sort(byTime)) {
    const k = `${e.repository}\u0000${e.ref}`;
    streams.set(k, [...(streams.get(k) ?? []), e]);
  }
  const seen = new Map<string, Seen>();
  const tracked = new Map<string, TrackedFinding>();
  const sightings: { e: EvaluationFact; v: ViolationFact | BypassFact; kind: Kind }[] = [
    ...violations.map((v) => ({ v, kind: "reported" as const })),
    ...bypasses.map((v) => ({ v, kind: "suppressed" as const })),
  ].flatMap((s) => {
    const e = evals.get(s.v.evaluation_id);
    return e ? [{ ...s, e }] : [];
  });
  for (const { e, v, kind } of sightings) {
    see(seen, e.id, v, kind);
    const key = [e.repository, e.ref, identityOf(v)].join("\u0000");
    const at: Sighting = { evaluation_id: e.id, at: e.completed_at };
    const detail =
      "severity" in v
        ? { severity: v.severity, message: v.message }
        : { severity: "", message: `Suppressed in code: ${v.reason || "no reason given"}` };
    const t = tracked.get(key);
    if (!t) {
      tracked.set(key, {
        key,
        fingerprint: v.fingerprint ?? "",
        repository: e.repository,
        ref: e.ref,
        policy_id: v.policy_id,
        rule_id: v.rule_id,
        file: v.file,
        line: v.line,
        ...detail,
        first_seen: at,
        last_seen: at,
        status: "open",
        reported: kind === "reported",
      });
      continue;
    }
    if (kind === "reported") {
      // A report's severity and message win over a suppression's placeholder.
      if (!t.reported || !later(t.last_seen, at)) Object.assign(t, detail);
      t.reported = true;
    }
    if (later(t.first_seen, at)) t.first_seen = at;
    if (later(at, t.last_seen)) {
      t.last_seen = at;
      t.line = v.line;
    }
  }
  for (const t of tracked.values()) {
    // Its latest sighting in its stream (by fingerprint, or by location for older records), then
    // the first evaluation after it that ran its policy and did not see it.
    const stream = streams.get(`${t.repository}\u0000${t.ref}`) ?? [];
    let last: Kind = t.reported ? "reported" : "suppressed";
    let fixedBy: EvaluationFact | undefined;
    for (const e of stream) {
      const at: Sighting = { evaluation_id: e.id, at: e.completed_at };
      if (later(t.first_seen, at)) continue;
      const kind = sawAs(seen.get(e.id), t);
      if (kind) {
        last = kind;
        fixedBy = undefined;
        if (later(at, t.last_seen)) t.last_seen = at;
      } else if (!fixedBy && e.policies.includes(t.policy_id) && readFile(e, t.file)) fixedBy = e;
    }
    if (fixedBy) {
      t.status = "fixed";
      t.fixed_by = { evaluation_id: fixedBy.id, at: fixedBy.completed_at };
    } else if (last === "suppressed") {
      t.status = "suppressed";
      const inLast = bypasses.filter((x) => x.evaluation_id === t.last_seen.evaluation_id);
      const b =
        inLast.find((x) => identityOf(x) === identityOf(t)) ?? inLast.find((x) => locationOf(x) === locationOf(t));
      t.suppressed_by = { ...t.last_seen, reason: b?.reason ?? "" };
    }
    const decision = decisions.get(`${t.repository}\u0000${identityOf(t)}`);
    if (decision && t.status !== "fixed" && !(decision.expires_at && decision.expires_at <= triage.now)) {
      t.status = decision.state;
      t.triage = decision;
    }
  }
  return [...tracked.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
