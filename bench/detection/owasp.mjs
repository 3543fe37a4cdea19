// OWASP Benchmark for Java (1.2) and for Python (0.1): thousands of small servlets / Flask views,
// each labelled in the suite's expected-results file with its category (the weakness, a CWE) and
// whether it is really vulnerable. Scored the standard way (the OWASP Benchmark scorecard): per
// category, true-positive rate minus false-positive rate, where a test counts as flagged when the
// tool reports, in the test's file, a finding of the test's CWE.
//
// Verdict's "finding of CWE N" is a finding of a policy that claims CWE N (its `cwe:CWE-N`
// framework reference), so the categories scored are exactly the ones its policies claim; the
// others are printed as not claimed. Semgrep (PyPI `semgrep`) runs beside it on the same files
// with Semgrep's public rules for the language, its findings' CWEs taken from the rules'
// metadata: a peer run only, nothing of it is used by Verdict.
//
// Neither the suites nor Semgrep's rules are served by a package registry. Point the variables
// below at a clone (work tree or bare git directory) of each repository; the benchmark exports
// what it needs from there into its cache, keyed by the clone's commit, and prints that commit.
//   VERDICT_OWASP_BENCHMARK_JAVA    github.com/OWASP-Benchmark/BenchmarkJava
//   VERDICT_OWASP_BENCHMARK_PYTHON  github.com/OWASP-Benchmark/BenchmarkPython
//   VERDICT_SEMGREP_RULES           github.com/semgrep/semgrep-rules (only its rules, *.yaml, are read)
// A suite without its variable is skipped with that reason; Semgrep is installed from PyPI into
// the cache (a virtual environment) the first time.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fmtInt, print, printTable, QUICK } from "../common.mjs";
import { available, cachedJson, cachePath, note, run } from "./cache.mjs";
import { scanAll } from "./secrets.mjs";

export const OWASP_SUITES = {
  java: {
    name: "OWASP Benchmark for Java",
    env: "VERDICT_OWASP_BENCHMARK_JAVA",
    repo: "OWASP-Benchmark/BenchmarkJava",
    expected: "expectedresults-1.2.csv",
    dir: "src/main/java/org/owasp/benchmark/testcode",
    ext: ".java",
    semgrepRules: ["java"],
  },
  python: {
    name: "OWASP Benchmark for Python",
    env: "VERDICT_OWASP_BENCHMARK_PYTHON",
    repo: "OWASP-Benchmark/BenchmarkPython",
    expected: "expectedresults-0.1.csv",
    dir: "testcode",
    ext: ".py",
    semgrepRules: ["python"],
  },
};

export const SEMGREP_VERSION = "1.185.0";

/** The expected-results file: `# comment` lines, then `BenchmarkTest00001,pathtraver,true,22`. */
export function parseExpected(csv) {
  return csv
    .split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [name, category, real, cwe] = l.split(",").map((s) => s.trim());
      if (!name || !category || !/^(true|false)$/.test(real ?? "") || !/^\d+$/.test(cwe ?? ""))
        throw new Error(`expected results: cannot read "${l}"`);
      return { name, category, real: real === "true", cwe: Number(cwe) };
    });
}

/**
 * The scorecard: per category, tests, true positives found (tp of positives) and negatives
 * flagged (fp of negatives), TPR, FPR and the score TPR - FPR. `flagged(test)` says whether the
 * tool reports the test's CWE in its file.
 */
export function owaspScore(tests, flagged) {
  const byCategory = new Map();
  for (const t of tests) {
    const c = byCategory.get(t.category) ?? { cwe: t.cwe, positives: 0, negatives: 0, tp: 0, fp: 0 };
    const hit = flagged(t);
    if (t.real) {
      c.positives++;
      if (hit) c.tp++;
    } else {
      c.negatives++;
      if (hit) c.fp++;
    }
    byCategory.set(t.category, c);
  }
  for (const c of byCategory.values()) {
    c.tpr = c.positives ? c.tp / c.positives : 0;
    c.fpr = c.negatives ? c.fp / c.negatives : 0;
    c.score = c.tpr - c.fpr;
  }
  return byCategory;
}

/** The CWE numbers a rule's metadata names (`cwe: "CWE-89: Improper …"` or a list of such). */
export function cwesOf(metadata) {
  const raw = metadata?.cwe;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.flatMap((s) => [...String(s).matchAll(/CWE-(\d+)/g)].map((m) => Number(m[1])));
}

/** Policy ids by the CWEs they claim (`cwe:CWE-N` in their frameworks). */
export function claimsByCwe(builtins) {
  const by = new Map();
  for (const p of builtins)
    for (const f of p.frameworks ?? []) {
      const m = /^cwe:CWE-(\d+)$/.exec(f);
      if (m) by.set(Number(m[1]), [...(by.get(Number(m[1])) ?? []), p.id]);
    }
  return by;
}

const isGitDir = (dir) => existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects"));

/**
 * The patterns (git pathspecs: a path, or a glob whose `*` also crosses `/`) that name at least
 * one of `files`: `git archive` refuses a pathspec that matches nothing (semgrep-rules has
 * `python/*.yaml` but no `python/*.yml`).
 */
export function matchingPathspecs(patterns, files) {
  return patterns.filter((p) => {
    const glob = p.includes("*")
      ? new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`)
      : undefined;
    return files.some((f) => (glob ? glob.test(f) : f === p || f.startsWith(`${p}/`)));
  });
}

/**
 * A checkout of `paths` of the repository at `source` (work tree or git directory), in the cache:
 * { root, commit }. A work tree is read in place.
 */
function checkout(source, key, paths) {
  const dir = resolve(source);
  const gitDir = isGitDir(dir) ? dir : isGitDir(join(dir, ".git")) ? join(dir, ".git") : undefined;
  const commit = gitDir ? run("git", [`--git-dir=${gitDir}`, "rev-parse", "HEAD"]).trim() : "work tree";
  if (!gitDir || existsSync(join(dir, ".git"))) return { root: dir, commit };
  const root = cachePath(`${key}-${commit.slice(0, 12)}`);
  if (!existsSync(join(root, ".complete"))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const files = run("git", [`--git-dir=${gitDir}`, "ls-tree", "-r", "--name-only", "HEAD"]).split("\n");
    const present = matchingPathspecs(paths, files);
    if (!present.length) throw new Error(`${source}: none of ${paths.join(", ")} is in ${key} at ${commit}`);
    note(`exporting ${present.join(", ")} of ${key} at ${commit.slice(0, 12)}`);
    run("bash", [
      "-c",
      `git --git-dir="$1" archive HEAD -- "\${@:3}" | tar -x -C "$2" && touch "$2/.complete"`,
      "_",
      gitDir,
      root,
      ...present,
    ]);
  }
  return { root, commit };
}

/** The suite's tests with their files' content; undefined (and why) when it is not there. */
export function loadSuite(suite) {
  const source = process.env[suite.env];
  if (!source) return { skipped: `${suite.env} is not set (a clone of ${suite.repo}; no package registry serves it)` };
  const { root, commit } = checkout(source, suite.repo.replace("/", "+"), [suite.expected, suite.dir]);
  let tests = parseExpected(readFileSync(join(root, suite.expected), "utf8"));
  if (QUICK) tests = tests.slice(0, 60);
  const dir = join(root, suite.dir);
  return {
    commit,
    dir,
    tests: tests.map((t) => ({ ...t, file: `${t.name}${suite.ext}` })),
  };
}

/** Semgrep from PyPI in a virtual environment of the cache; its path, or undefined (and why). */
function semgrepBinary() {
  const venv = cachePath(`semgrep-${SEMGREP_VERSION}`);
  const bin = join(venv, "bin", "semgrep");
  if (!existsSync(bin)) {
    if (!available("python3", ["-m", "venv", "--help"])) return { skipped: "python3 with venv is not installed" };
    note(`installing semgrep ${SEMGREP_VERSION} from PyPI into ${venv}`);
    run("python3", ["-m", "venv", venv]);
    run(join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `semgrep==${SEMGREP_VERSION}`]);
  }
  return { bin };
}

/** Semgrep's findings on the suite's test files: file name -> CWE numbers reported there. */
function semgrepFindings(suite, loaded) {
  const rulesSource = process.env.VERDICT_SEMGREP_RULES;
  if (!rulesSource) return { skipped: "VERDICT_SEMGREP_RULES is not set (a clone of semgrep/semgrep-rules)" };
  const { bin, skipped } = semgrepBinary();
  if (skipped) return { skipped };
  // Only rule files are exported: the rule repository's own test files stay out of the run.
  const rules = checkout(
    rulesSource,
    `semgrep-rules-${suite.semgrepRules.join("-")}`,
    suite.semgrepRules.flatMap((d) => [`${d}/*.yaml`, `${d}/*.yml`]),
  );
  const ruleFiles = suite.semgrepRules.flatMap((d) => yamlFiles(join(rules.root, d)));
  const key = `semgrep-${SEMGREP_VERSION}-${suite.repo.replace("/", "+")}-${loaded.commit.slice(0, 12)}-${rules.commit.slice(0, 12)}${QUICK ? "-quick" : ""}.json`;
  const doc = cachedJson(
    cachePath(key),
    (d) => d && d.version === SEMGREP_VERSION,
    () => {
      note(`running semgrep ${SEMGREP_VERSION} on ${suite.name} with ${ruleFiles.length} rule files (minutes)`);
      const targets = loaded.tests.map((t) => join(loaded.dir, t.file));
      const started = performance.now();
      const out = run(
        bin,
        [
          "scan",
          "--json",
          "--metrics=off",
          "--disable-version-check",
          "--no-git-ignore",
          "--jobs",
          "2",
          "--timeout",
          "30",
          ...suite.semgrepRules.flatMap((d) => ["--config", join(rules.root, d)]),
          ...targets,
        ],
        { env: { ...process.env, SEMGREP_SEND_METRICS: "off", SEMGREP_ENABLE_VERSION_CHECK: "0" } },
      );
      const result = JSON.parse(out);
      const seconds = (performance.now() - started) / 1000;
      return {
        version: SEMGREP_VERSION,
        rules_commit: rules.commit,
        findings: result.results.map((r) => ({
          file: r.path.slice(r.path.lastIndexOf("/") + 1),
          rule: r.check_id,
          line: r.start.line,
          cwes: cwesOf(r.extra?.metadata),
        })),
        errors: result.errors?.length ?? 0,
        seconds,
      };
    },
  );
  const byFile = new Map();
  for (const f of doc.findings) byFile.set(f.file, new Set([...(byFile.get(f.file) ?? []), ...f.cwes]));
  return {
    byFile,
    rulesCommit: doc.rules_commit,
    ruleFiles: ruleFiles.length,
    findings: doc.findings.length,
    seconds: doc.seconds,
  };
}

function yamlFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.ya?ml$/.test(f) && !/\.test\.ya?ml$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const signed = (x) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;

/** Scores Verdict (and Semgrep, when it runs) on each suite; returns the per-suite scorecards. */
export function runOwasp({ engine, builtins, misses }) {
  const claims = claimsByCwe(builtins);
  const results = {};
  for (const [lang, suite] of Object.entries(OWASP_SUITES)) {
    print(`${suite.name}: scorecard per category (score = TPR - FPR)`);
    const loaded = loadSuite(suite);
    if (loaded.skipped) {
      print(`  skipped: ${loaded.skipped}`);
      print();
      continue;
    }
    const reported = new Map();
    const contents = loaded.tests.map((t) => readFileSync(join(loaded.dir, t.file)));
    const bytes = contents.reduce((n, c) => n + c.length, 0);
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    loaded.tests.forEach((t, i) => {
      reported.set(t.name, scanAll(engine, `${suite.dir}/${t.file}`, contents[i]).findings);
    });
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const wallSeconds = (performance.now() - wall0) / 1000;
    const verdictFlags = (t) => reported.get(t.name).some((f) => (claims.get(t.cwe) ?? []).includes(f.policy_id));
    const verdict = owaspScore(loaded.tests, verdictFlags);
    const semgrep = semgrepFindings(suite, loaded);
    const peer = semgrep.byFile
      ? owaspScore(loaded.tests, (t) => semgrep.byFile.get(t.file)?.has(t.cwe) ?? false)
      : undefined;
    print(`  ${fmtInt(loaded.tests.length)} tests, ${suite.repo} at ${loaded.commit.slice(0, 12)}`);
    print(
      `  Verdict (every built-in rule, one thread): ${(bytes / 1e6).toFixed(2)} MB in ${wallSeconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} CPU-s: ${(bytes / 1e6 / wallSeconds).toFixed(2)} MB/s, ${(bytes / 1e6 / cpuSeconds).toFixed(2)} MB per CPU-second`,
    );
    if (semgrep.skipped) print(`  Semgrep: skipped: ${semgrep.skipped}`);
    else
      print(
        `  Semgrep ${SEMGREP_VERSION}: ${fmtInt(semgrep.ruleFiles)} rule files of semgrep-rules at ${semgrep.rulesCommit.slice(0, 12)}, ${fmtInt(semgrep.findings)} findings${semgrep.seconds ? ` (${semgrep.seconds.toFixed(0)} s wall, its own processes, when it ran)` : ""}`,
      );
    const rows = [...verdict.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const claimed = rows.filter(([, c]) => claims.has(c.cwe));
    printTable([
      [
        "claimed category",
        "CWE",
        "tests (+/-)",
        "Verdict TPR",
        "FPR",
        "score",
        "Semgrep TPR",
        "FPR",
        "score",
        "Verdict >= Semgrep",
      ],
      ...claimed.map(([name, c]) => {
        const s = peer?.get(name);
        return [
          name,
          String(c.cwe),
          `${c.positives}/${c.negatives}`,
          pct(c.tpr),
          pct(c.fpr),
          signed(c.score),
          s ? pct(s.tpr) : "-",
          s ? pct(s.fpr) : "-",
          s ? signed(s.score) : "-",
          s ? (c.score >= s.score ? "yes" : "no") : "-",
        ];
      }),
    ]);
    const unclaimed = rows.filter(([, c]) => !claims.has(c.cwe));
    if (unclaimed.length)
      print(
        `  not claimed by any Verdict policy: ${unclaimed.map(([n, c]) => `${n} (CWE-${c.cwe}${peer ? `, Semgrep ${signed(peer.get(n).score)}` : ""})`).join(", ")}`,
      );
    print();
    results[lang] = { verdict, semgrep: peer };
    if (misses) {
      misses.owasp ??= {};
      misses.owasp[lang] = loaded.tests
        .filter((t) => claims.has(t.cwe) && t.real !== verdictFlags(t))
        .map((t) => ({
          test: t.name,
          category: t.category,
          cwe: t.cwe,
          real: t.real,
          file: join(loaded.dir, t.file),
          findings: reported.get(t.name).map((f) => ({ policy_id: f.policy_id, rule_id: f.rule_id, line: f.line })),
        }));
    }
  }
  return results;
}
