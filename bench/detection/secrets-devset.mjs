// Secrets: a dev set that is not gitleaks' (issue 29), scored for Verdict and gitleaks side by side.
//
// Sources, each labelled from its own authors' markers (the labelling rule of each is below):
//   kics         KICS' `passwords_and_secrets` query tests (Go module github.com/Checkmarx/kics/v2,
//                Apache-2.0, the same pin as the insecure part): a line of a positive*.* file that
//                positive_expected_result.json names is a positive, grouped by KICS' query name
//                ("Generic Password", "AWS Access Key", ...); every negative*.* file is a negative.
//                Lines of positive files KICS names no result on are not labelled (not scored).
//                KICS names a PEM private key by its first body line: the label moves to the
//                `-----BEGIN` line above it, where the key starts.
//   files        credential files written for this set from each format's documentation
//                (devset-files.mjs): the line of every value a case lists as a secret is a
//                positive; a case without secrets is a negative.
//   ggshield     GitGuardian's ggshield (PyPI sdist, MIT): the recorded API exchanges of its unit
//                tests (tests/unit/cassettes/*.yaml), each a document ggshield sent to GitGuardian's
//                secret-detection API and the policy breaks the API answered. Every match of a
//                policy break that is the credential (not its host, port, username, ...) is a
//                positive on its line_start; a document the API found nothing in is a negative.
//                Documents are deduplicated by content; each is scanned as document.txt.
//   examples     providers' documented example tokens, as their pages print them
//                (devset-examples.mjs): full-form example credentials are positives;
//                placeholders, shortened values and keys public by design are negatives.
// A positive is found when the tool reports a `secrets` finding on its line (Verdict: the line a
// finding starts on; gitleaks: StartLine..EndLine); a negative is flagged when the tool reports
// anything in its file. A found positive counts as found by a provider-specific rule when a rule
// that is not the tool's catch-all reports on its line: for Verdict every rule but the `generic`
// ones (generic-secrets, hardcoded-credentials' assignment rules, the generic file rules), for
// gitleaks every rule but `generic-api-key`.
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { URL } from "node:url";
import { fmtInt, print, printTable } from "../common.mjs";
import { cachedJson, cachePath, note, pypiSdist } from "./cache.mjs";
import { EXAMPLE_TOKENS } from "./devset-examples.mjs";
import { CREDENTIAL_FILES } from "./devset-files.mjs";
import { GITLEAKS_VERSION, gitleaksBinary, goModuleDir } from "./gitleaks-samples.mjs";
import { SOURCES } from "./insecure-sources.mjs";
import { groupsWithoutRecall, percent, scoreCases } from "./score.mjs";

// Bump when the extraction changes: cached cases from another format are rebuilt.
const FORMAT = 2;
const KICS_QUERY = "assets/queries/common/passwords_and_secrets";
/** gitleaks' catch-all rule. */
export const GITLEAKS_GENERIC = new Set(["generic-api-key"]);

/**
 * KICS' passwords_and_secrets tests as cases: { source, id, path, content, positives: [{ line, group }] }.
 * `expected` is positive_expected_result.json; `files` maps a test file name to its text.
 */
export function kicsSecretCases(expected, files) {
  const byFile = new Map();
  for (const e of expected) {
    const name = basename(e.fileName ?? "");
    if (!name || typeof e.line !== "number") continue;
    const group = String(e.queryName ?? "unknown").replace(/^Passwords And Secrets - /, "");
    const list = byFile.get(name) ?? [];
    if (!list.some((p) => p.line === e.line)) list.push({ line: e.line, group });
    byFile.set(name, list);
  }
  const cases = [];
  const pemStart = (content, line) => (/-----BEGIN /.test(content.split("\n")[line - 2] ?? "") ? line - 1 : line);
  for (const name of [...files.keys()].sort()) {
    const positive = /^positive/.test(name);
    if (!positive && !/^negative/.test(name)) continue;
    // A positive file KICS expects no result in labels nothing.
    if (positive && !byFile.has(name)) continue;
    cases.push({
      source: "kics",
      id: `kics/${name}`,
      path: name,
      content: files.get(name),
      positives: positive
        ? byFile
            .get(name)
            .map((p) => ({ ...p, line: pemStart(files.get(name), p.line) }))
            .sort((a, b) => a.line - b.line)
        : [],
      group: positive ? undefined : "negative",
    });
  }
  return cases;
}

function fetchKics() {
  const { module, version } = SOURCES.kics;
  const test = join(goModuleDir(module, version), KICS_QUERY, "test");
  const files = new Map();
  for (const name of readdirSync(test)) {
    const full = join(test, name);
    if (statSync(full).isFile() && name !== "positive_expected_result.json")
      files.set(name, readFileSync(full, "utf8"));
  }
  return kicsSecretCases(JSON.parse(readFileSync(join(test, "positive_expected_result.json"), "utf8")), files);
}

export const GGSHIELD = { pypi: "ggshield", version: "1.56.1" };
// Match types of a policy break that say where or for whom a credential is, not the credential.
const GG_CONTEXT_MATCHES = new Set(["host", "port", "username", "database", "client_id", "email", "url", "scheme"]);

/**
 * ggshield's recorded scans as cases: `cassettes` are the parsed cassette files (VCR YAML),
 * `{ interactions: [{ request: { method, uri, body }, response: { body: { string } } }] }`.
 */
export function ggshieldCases(cassettes) {
  const byDocument = new Map();
  for (const cassette of cassettes) {
    for (const { request, response } of cassette?.interactions ?? []) {
      if (request?.method !== "POST" || !/\/v1\/(?:multi)?scan\b/.test(request.uri ?? "")) continue;
      let sent;
      let answered;
      try {
        sent = JSON.parse(request.body);
        answered = JSON.parse(response?.body?.string ?? "");
      } catch {
        continue;
      }
      const docs = Array.isArray(sent) ? sent : [sent];
      const results = Array.isArray(answered) ? answered : [answered];
      docs.forEach((doc, i) => {
        const result = results[i];
        if (typeof doc?.document !== "string" || !result || typeof result !== "object") return;
        if (byDocument.has(doc.document)) return;
        const positives = [];
        for (const pb of result.policy_breaks ?? []) {
          for (const m of pb.matches ?? []) {
            if (GG_CONTEXT_MATCHES.has(m.type) || typeof m.line_start !== "number") continue;
            if (!positives.some((p) => p.line === m.line_start))
              positives.push({ line: m.line_start, group: String(pb.type) });
          }
        }
        byDocument.set(
          doc.document,
          positives.sort((a, b) => a.line - b.line),
        );
      });
    }
  }
  return [...byDocument.entries()].map(([content, positives], i) => ({
    source: "ggshield",
    id: `ggshield/${String(i).padStart(3, "0")}`,
    path: "document.txt",
    content,
    positives,
    group: "negative",
  }));
}

function fetchGgshield() {
  const { pypi, version } = GGSHIELD;
  const yaml = createRequire(new URL("../../libs/cli/package.json", import.meta.url))("yaml");
  const work = mkdtempSync(join(tmpdir(), "verdict-ggshield-"));
  try {
    const dir = join(pypiSdist(pypi, version, work), "tests", "unit", "cassettes");
    const cassettes = readdirSync(dir)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
      .map((f) => yaml.parse(readFileSync(join(dir, f), "utf8")));
    return ggshieldCases(cassettes);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** 1-based line on which `value` first starts in `content`, or 0 when it is not there. */
export function lineOf(content, value) {
  const at = content.indexOf(value);
  return at < 0 ? 0 : content.slice(0, at).split("\n").length;
}

/**
 * Hand-written cases ({ id, group, path, content, secrets: [value] }) as labelled cases: each
 * secret's line is a positive of the case's group. Throws on a secret the content does not hold.
 */
export function valueCases(source, list) {
  return list.map((c) => ({
    source,
    id: `${source}/${c.id}`,
    path: c.path,
    content: c.content,
    positives: c.secrets.map((value) => {
      const line = lineOf(c.content, value);
      if (!line) throw new Error(`${source}/${c.id}: secret not in its content: ${value}`);
      return { line, group: c.group };
    }),
    group: c.group,
  }));
}

/** Labelled units: one per positive line, one per negative file. */
export function labelUnits(cases) {
  return cases.flatMap((c) =>
    c.positives.length
      ? c.positives.map((p) => ({ case: c, positive: true, line: p.line, group: p.group }))
      : [{ case: c, positive: false, group: c.group }],
  );
}

/**
 * The hits (`[{ line, endLine, rule }]` of a case) on a unit: on a positive's line, or anywhere in
 * a negative's file.
 */
export function unitHits(unit, hits) {
  return unit.positive ? hits.filter((h) => h.line <= unit.line && unit.line <= h.endLine) : hits;
}

/** Scores one tool: `hitsOf(case)` its hits; `generic` its catch-all rule ids. */
export function scoreTool(units, hitsOf, generic) {
  const score = scoreCases(units, (u) => unitHits(u, hitsOf(u.case)).length > 0);
  const specific = units.filter((u) => u.positive && unitHits(u, hitsOf(u.case)).some((h) => !generic.has(h.rule)));
  return { ...score, specific: specific.length };
}

export function devsetCases() {
  const kics = cachedJson(
    cachePath("devset", "kics.json"),
    (d) => d.format === FORMAT && d.version === SOURCES.kics.version,
    () => {
      note(`secrets dev set: reading KICS ${SOURCES.kics.version} ${KICS_QUERY} tests`);
      return { ...SOURCES.kics, format: FORMAT, cases: fetchKics() };
    },
  ).cases;
  const ggshield = cachedJson(
    cachePath("devset", "ggshield.json"),
    (d) => d.format === FORMAT && d.version === GGSHIELD.version,
    () => {
      note(`secrets dev set: fetching ggshield ${GGSHIELD.version} (PyPI sdist) for its test cassettes`);
      return { ...GGSHIELD, format: FORMAT, cases: fetchGgshield() };
    },
  ).cases;
  return {
    kics,
    ggshield,
    files: valueCases("files", CREDENTIAL_FILES),
    examples: valueCases("examples", EXAMPLE_TOKENS),
  };
}

/** gitleaks' findings on the cases (written under `root`), cached by the cases' hash. */
function gitleaksHits(runGitleaks, root, cases, dirOf) {
  const key = `${GITLEAKS_VERSION} ${createHash("sha256")
    .update(JSON.stringify(cases.map((c) => [c.id, c.path, c.content])))
    .digest("hex")}`;
  const doc = cachedJson(
    cachePath("secrets-devset-gitleaks.json"),
    (d) => d.key === key,
    () => {
      note("secrets dev set: running gitleaks dir over the cases");
      const hits = {};
      for (const f of runGitleaks(gitleaksBinary(), root, cachePath("secrets-devset-gitleaks-report.json")).findings) {
        (hits[f.File] ??= []).push({ line: f.StartLine, endLine: f.EndLine, rule: f.RuleID });
      }
      return { key, hits };
    },
  );
  return (c) => doc.hits[`${dirOf.get(c)}/${c.path}`] ?? [];
}

/** Scores and prints the dev set; `verdict` is secrets.mjs' engine, `scanAll` and `runGitleaks` its helpers. */
export function runDevset({ verdict, scanAll, runGitleaks, misses }) {
  const bySource = devsetCases();
  const cases = Object.values(bySource).flat();
  const root = cachePath("secrets-devset");
  rmSync(root, { recursive: true, force: true });
  const dirOf = new Map();
  cases.forEach((c, i) => {
    const dir = String(i).padStart(4, "0");
    dirOf.set(c, dir);
    const file = join(root, dir, c.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, c.content);
  });

  const { engine, categories, generic } = verdict;
  const verdictHitMap = new Map(
    cases.map((c) => [
      c,
      scanAll(engine, c.path, Buffer.from(c.content, "utf8"))
        .findings.filter((f) => categories.get(f.policy_id) === "secrets")
        .map((f) => ({ line: f.line, endLine: f.line, rule: f.rule_id })),
    ]),
  );
  const verdictHits = (c) => verdictHitMap.get(c);
  const gitleaksOf = gitleaksHits(runGitleaks, root, cases, dirOf);

  const rows = [];
  const both = (units) => ({
    v: scoreTool(units, verdictHits, generic),
    g: scoreTool(units, gitleaksOf, GITLEAKS_GENERIC),
  });
  const row = (name, { v, g }) => [
    name,
    fmtInt(v.total.positives),
    `${fmtInt(v.total.found)} (${percent(v.total.found, v.total.positives)})`,
    `${fmtInt(g.total.found)} (${percent(g.total.found, g.total.positives)})`,
    `${fmtInt(v.specific)} (${percent(v.specific, v.total.positives)})`,
    `${fmtInt(g.specific)} (${percent(g.specific, g.total.positives)})`,
    fmtInt(v.total.negatives),
    `${fmtInt(v.total.flagged)} (${percent(v.total.flagged, v.total.negatives)})`,
    `${fmtInt(g.total.flagged)} (${percent(g.total.flagged, g.total.negatives)})`,
  ];
  const scores = {};
  for (const [name, list] of Object.entries(bySource)) {
    scores[name] = both(labelUnits(list));
    rows.push(row(name, scores[name]));
  }
  const allUnits = labelUnits(cases);
  const all = both(allUnits);
  rows.push(row("all", all));

  print("Secrets: dev set that is not gitleaks' (bench/detection/secrets-devset.mjs)");
  print(
    `  kics: KICS ${SOURCES.kics.version} ${KICS_QUERY} tests (Apache-2.0); files: credential files written from their formats' docs (devset-files.mjs)`,
  );
  print(
    `  ggshield: ggshield ${GGSHIELD.version} unit-test cassettes (MIT), labelled by GitGuardian's API answers recorded in them`,
  );
  print("  examples: providers' documented example tokens and placeholders, each with its page (devset-examples.mjs)");
  print();
  printTable([
    [
      "source",
      "positives",
      "Verdict found",
      `gitleaks ${GITLEAKS_VERSION} found`,
      "Verdict provider rule",
      "gitleaks provider rule",
      "negatives",
      "Verdict flagged",
      "gitleaks flagged",
    ],
    ...rows,
  ]);
  print(
    "  provider rule: positives a rule other than the tool's catch-all reports on (the rest of 'found' only a catch-all rule finds)",
  );
  for (const [name, tool] of [
    ["Verdict", all.v],
    ["gitleaks", all.g],
  ]) {
    const zero = groupsWithoutRecall(tool);
    print(`  Groups with no ${name} recall (${zero.length} of ${tool.groups.size}): ${zero.join(", ") || "none"}`);
  }
  const flaggedGroups = (tool) =>
    [...tool.groups.entries()]
      .filter(([, c]) => c.flagged > 0)
      .map(([g, c]) => `${g} ${c.flagged}/${c.negatives}`)
      .join(", ") || "none";
  print(`  Negatives flagged by Verdict, by group: ${flaggedGroups(all.v)}`);
  print(`  Negatives flagged by gitleaks, by group: ${flaggedGroups(all.g)}`);
  print();

  if (misses) {
    const entry = (u) => ({
      id: u.case.id,
      path: u.case.path,
      group: u.group,
      ...(u.positive ? { line: u.line, text: u.case.content.split("\n")[u.line - 1] } : {}),
      verdict_rules: unitHits(u, verdictHits(u.case)).map((h) => h.rule),
      gitleaks_rules: unitHits(u, gitleaksOf(u.case)).map((h) => h.rule),
    });
    misses.secrets_devset = {
      missed_tp: allUnits.filter((u) => u.positive && !unitHits(u, verdictHits(u.case)).length).map(entry),
      flagged_negatives: allUnits.filter((u) => !u.positive && verdictHits(u.case).length).map(entry),
    };
  }
  return Object.fromEntries(Object.entries({ ...scores, all }).map(([k, s]) => [k, { verdict: s.v, gitleaks: s.g }]));
}
