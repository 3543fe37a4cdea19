// Secrets: gitleaks' own rule samples (gitleaks-samples.mjs), scored for Verdict and gitleaks.
//
// Each sample is written to a file of its own, <dir>/<tp|fp>/<n>/<name>: the sample's path when
// gitleaks tests the rule with one (path-scoped rules, e.g. `.pypirc`), else `sample.txt`
// (gitleaks tests those samples as bare strings; a neutral text file lets neither tool use the
// extension). Verdict's engine with the full built-in library scans every file; a true positive
// counts as found, a false positive as flagged, when any finding of a `secrets` policy is
// reported in its file. gitleaks scans the directory once (`gitleaks dir`), with its default
// config, and is scored the same way on the same files.
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compileEngine, FULL_BUILTIN_SETTINGS, fmtInt, print, printTable, resolveBuiltins, ROOT } from "../common.mjs";
import { cachedJson, cachePath, note, run } from "./cache.mjs";
import { GITLEAKS_MODULE, GITLEAKS_VERSION, gitleaksBinary, gitleaksSamples } from "./gitleaks-samples.mjs";
import { groupsWithoutRecall, percent, scoreCases, validElsewhere } from "./score.mjs";
import { runDevset } from "./secrets-devset.mjs";

export const NEUTRAL_NAME = "sample.txt";

/** The policies of the full built-in library, the engine compiled from them, and which are secrets. */
export function verdictEngine() {
  const policies = resolveBuiltins(FULL_BUILTIN_SETTINGS);
  const engine = compileEngine(policies);
  const categories = new Map(policies.map((p) => [p.id, p.category]));
  // Catch-all rules (generic: true): a family they alone find has no rule of its own.
  const generic = new Set(policies.flatMap((p) => p.patterns.filter((r) => r.generic).map((r) => r.rule_id)));
  return { policies, engine, categories, generic };
}

/** Every finding the engine reports in one file (not only the first few). */
export function scanAll(engine, path, content) {
  return engine.scan(path, content, { allowSuppression: true, limit: 100_000 });
}

/** Samples as files: relative path (under the samples directory) and the path the scanners see. */
export function sampleFiles(samples) {
  return samples.map((s, i) => {
    const name = s.path ?? NEUTRAL_NAME;
    return { sample: s, dir: `${s.kind}/${String(i).padStart(5, "0")}`, name };
  });
}

/**
 * Runs `gitleaks dir` once over `root`; returns the set of files (relative to root, `/`-separated)
 * with at least one finding, and all the findings.
 */
export function runGitleaks(bin, root, reportFile) {
  rmSync(reportFile, { force: true });
  // Exit code 1 means "leaks found": that is a result, not a failure.
  const args = [
    "dir",
    root,
    "--no-banner",
    "--report-format",
    "json",
    "--report-path",
    reportFile,
    "--exit-code",
    "0",
    "--log-level",
    "error",
  ];
  run(bin, args);
  const findings = JSON.parse(readFileSync(reportFile, "utf8"));
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const rel = (file) => (file.startsWith(prefix) ? file.slice(prefix.length) : file);
  return {
    files: new Set(findings.map((f) => rel(f.File))),
    findings: findings.map((f) => ({ ...f, File: rel(f.File) })),
  };
}

export function runSecrets({ misses }) {
  const samples = gitleaksSamples();
  const files = sampleFiles(samples);
  const root = cachePath("secrets-samples");
  rmSync(root, { recursive: true, force: true });
  for (const f of files) {
    const file = join(root, f.dir, f.name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, f.sample.text);
  }

  const verdictLib = verdictEngine();
  const { engine, categories, generic } = verdictLib;
  const verdictHits = new Map();
  for (const f of files) {
    const scan = scanAll(engine, f.name, Buffer.from(f.sample.text, "utf8"));
    const secretFindings = scan.findings.filter((x) => categories.get(x.policy_id) === "secrets");
    verdictHits.set(
      f,
      secretFindings.map((x) => x.rule_id),
    );
  }

  // gitleaks' verdict on the same samples with the same version does not change: cached, with
  // the rules it reports in each file (they decide which samples are valid secrets elsewhere).
  const key = `${GITLEAKS_VERSION} ${createHash("sha256").update(JSON.stringify(samples)).digest("hex")} rules`;
  const gitleaksRules = cachedJson(
    cachePath("secrets-gitleaks.json"),
    (d) => d.key === key,
    () => {
      note("secrets: running gitleaks dir over the samples");
      const rules = {};
      for (const f of runGitleaks(gitleaksBinary(), root, cachePath("secrets-gitleaks-report.json")).findings) {
        rules[f.File] = [...new Set([...(rules[f.File] ?? []), f.RuleID])].sort();
      }
      return { key, rules };
    },
  ).rules;
  const rulesOf = (f) => gitleaksRules[`${f.dir}/${f.name}`] ?? [];
  const gitleaksHit = (f) => rulesOf(f).length > 0;

  const cases = files.map((f) => ({ file: f, positive: f.sample.kind === "tp", group: f.sample.family }));
  const verdict = scoreCases(cases, (c) => verdictHits.get(c.file).length > 0);
  const peer = scoreCases(cases, (c) => gitleaksHit(c.file));
  // False-positive samples that are valid secrets of another gitleaks rule (VALID_ELSEWHERE): set
  // aside in the adjusted figures, listed below.
  const setAside = new Map(files.map((f) => [f, validElsewhere(f.sample, rulesOf(f))]).filter(([, v]) => v));
  const adjustedCases = cases.filter((c) => !setAside.has(c.file));
  const verdictAdj = scoreCases(adjustedCases, (c) => verdictHits.get(c.file).length > 0);
  const peerAdj = scoreCases(adjustedCases, (c) => gitleaksHit(c.file));

  print(`Secrets: gitleaks' rule samples (${GITLEAKS_MODULE}@${GITLEAKS_VERSION}, cmd/generate/config/rules)`);
  print(
    `  ${fmtInt(verdict.total.positives)} true-positive and ${fmtInt(verdict.total.negatives)} false-positive samples from ${verdict.groups.size} rule families; Verdict from ${ROOT}`,
  );
  print();
  printTable([
    ["", "tp found", "recall", "fp flagged", "fp rate"],
    [
      "Verdict",
      fmtInt(verdict.total.found),
      percent(verdict.total.found, verdict.total.positives),
      fmtInt(verdict.total.flagged),
      percent(verdict.total.flagged, verdict.total.negatives),
    ],
    [
      `gitleaks ${GITLEAKS_VERSION}`,
      fmtInt(peer.total.found),
      percent(peer.total.found, peer.total.positives),
      fmtInt(peer.total.flagged),
      percent(peer.total.flagged, peer.total.negatives),
    ],
    [
      `Verdict, adjusted (${fmtInt(verdictAdj.total.negatives)} fp)`,
      "",
      "",
      fmtInt(verdictAdj.total.flagged),
      percent(verdictAdj.total.flagged, verdictAdj.total.negatives),
    ],
    [
      `gitleaks, adjusted (${fmtInt(peerAdj.total.negatives)} fp)`,
      "",
      "",
      fmtInt(peerAdj.total.flagged),
      percent(peerAdj.total.flagged, peerAdj.total.negatives),
    ],
  ]);
  print("  targets (issue 12): recall >= 97%, fp rate <= 5%, families without recall: 0");
  print(
    `  adjusted: ${fmtInt(setAside.size)} false-positive samples set aside as valid secrets of another gitleaks rule (bench/detection/score.mjs VALID_ELSEWHERE):`,
  );
  const asideByFamily = new Map();
  for (const [f, v] of setAside) {
    const entry = asideByFamily.get(v.family) ?? { reason: v.reason, samples: [] };
    entry.samples.push(
      `${f.sample.rule_id} -> ${v.rules.join("+")} (Verdict: ${verdictHits.get(f).length ? "flagged" : "quiet"})`,
    );
    asideByFamily.set(v.family, entry);
  }
  for (const [family, { reason, samples: list }] of asideByFamily) {
    print(`    ${family} (${list.length}): ${reason}`);
    const counts = new Map();
    for (const s of list) counts.set(s, (counts.get(s) ?? 0) + 1);
    for (const [s, n] of counts) print(`      ${n} x ${s}`);
  }
  print();
  const zero = groupsWithoutRecall(verdict);
  print(`  Families (rule files) with zero Verdict recall: ${zero.length} of ${verdict.groups.size}`);
  for (let i = 0; i < zero.length; i += 10) print(`    ${zero.slice(i, i + 10).join(" ")}`);
  // Families whose true positives only catch-all rules find: no provider rule of Verdict's own.
  const specific = scoreCases(cases, (c) => verdictHits.get(c.file).some((r) => !generic.has(r)));
  // gitleaks' own catch-all family (generic-api-key) is meant for catch-all rules.
  const genericOnly = groupsWithoutRecall(specific).filter((g) => !zero.includes(g) && g !== "generic");
  print(
    `  Families found only by catch-all rules (${[...generic].sort().join(", ")}), no rule of their own: ${genericOnly.length}`,
  );
  for (let i = 0; i < genericOnly.length; i += 10) print(`    ${genericOnly.slice(i, i + 10).join(" ")}`);
  print(
    `  Families without a provider rule (the two lists above): ${zero.length + genericOnly.length} of ${verdict.groups.size}`,
  );
  const partial = [...verdict.groups.entries()]
    .filter(([, c]) => c.positives > 0 && c.found > 0 && c.found < c.positives)
    .sort(([a, x], [b, y]) => x.found / x.positives - y.found / y.positives || (a < b ? -1 : 1));
  print(`  Families with partial Verdict recall: ${partial.length}`);
  for (let i = 0; i < partial.length; i += 6) {
    print(
      `    ${partial
        .slice(i, i + 6)
        .map(([g, c]) => `${g} ${c.found}/${c.positives}`)
        .join(", ")}`,
    );
  }
  const flaggedFamilies = [...verdict.groups.entries()]
    .filter(([, c]) => c.flagged > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  print(
    `  Families with flagged false positives: ${flaggedFamilies.map(([g, c]) => `${g} ${c.flagged}/${c.negatives}`).join(", ") || "none"}`,
  );
  print();

  if (misses) {
    const entry = (f) => ({
      rule_id: f.sample.rule_id,
      family: f.sample.family,
      ...(f.sample.path ? { path: f.sample.path } : {}),
      text: f.sample.text,
      gitleaks_reports: gitleaksHit(f),
      ...(setAside.has(f) ? { set_aside: setAside.get(f).reason } : {}),
    });
    misses.secrets = {
      source: `${GITLEAKS_MODULE}@${GITLEAKS_VERSION}`,
      missed_tp: files.filter((f) => f.sample.kind === "tp" && !verdictHits.get(f).length).map(entry),
      flagged_fp: files
        .filter((f) => f.sample.kind === "fp" && verdictHits.get(f).length)
        .map((f) => ({ ...entry(f), verdict_rules: verdictHits.get(f) })),
    };
  }
  const devset = runDevset({ verdict: verdictLib, scanAll, runGitleaks, misses });
  return {
    devset,
    verdict: verdict.total,
    gitleaks: peer.total,
    verdictAdjusted: verdictAdj.total,
    familiesWithoutRule: zero.length + genericOnly.length,
  };
}
