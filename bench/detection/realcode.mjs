// Noise on clean code: the real-code corpus (real-corpus.mjs) scanned by Verdict's engine (full
// built-in library) and by `gitleaks dir`, same files. Printed: secret findings, all findings,
// findings per MB, per package; with --misses / --findings FILE every Verdict secret finding
// (file:line rule, the line with the secret masked as Verdict shows it) and every gitleaks finding,
// so each can be explained.
import { fmtInt, fmtMB, MB, print, printTable } from "../common.mjs";
import { readTree } from "../ripgrep.mjs";
import { cachedJson, cachePath, note } from "./cache.mjs";
import { CORPUS_KEY, NPM_PACKAGES, PYPI_PACKAGES, realCorpus } from "./real-corpus.mjs";
import { GITLEAKS_VERSION, gitleaksBinary } from "./gitleaks-samples.mjs";
import { maskSecret } from "./score.mjs";
import { runGitleaks, scanAll, verdictEngine } from "./secrets.mjs";

const packageOf = (path) => path.split("/")[0];

/** The corpus as files in memory (path relative to the corpus root), and its size. */
export function corpusFiles() {
  const root = realCorpus();
  const { files } = readTree(root, Infinity);
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  return { root, files, bytes };
}

export function runCorpus({ misses }) {
  const { root, files, bytes } = corpusFiles();
  const { engine, categories } = verdictEngine();
  const verdict = { all: 0, secrets: 0, skipped: 0, secretFindings: [], byPackage: new Map() };
  for (const f of files) {
    const scan = scanAll(engine, f.path, f.content);
    if (scan.skipped) verdict.skipped++;
    const pkg = packageOf(f.path);
    const row = verdict.byPackage.get(pkg) ?? { bytes: 0, all: 0, secrets: 0, gitleaks: 0 };
    row.bytes += f.content.length;
    row.all += scan.matched;
    verdict.all += scan.matched;
    for (const x of scan.findings) {
      if (categories.get(x.policy_id) !== "secrets") continue;
      verdict.secrets++;
      row.secrets++;
      verdict.secretFindings.push({
        file: f.path,
        line: x.line,
        policy_id: x.policy_id,
        rule_id: x.rule_id,
        snippet: x.code_snippet,
      });
    }
    verdict.byPackage.set(pkg, row);
  }

  // gitleaks' findings on the pinned corpus with the pinned version are cached (one run takes
  // minutes on a shared machine); the speed part times gitleaks afresh.
  const gitleaks = cachedJson(
    cachePath("corpus-gitleaks.json"),
    (d) => d.key === `${GITLEAKS_VERSION} ${CORPUS_KEY}`,
    () => {
      note("corpus: running gitleaks dir (minutes)");
      return {
        key: `${GITLEAKS_VERSION} ${CORPUS_KEY}`,
        findings: runGitleaks(gitleaksBinary(), root, cachePath("corpus-gitleaks-report.json")).findings,
      };
    },
  );
  for (const g of gitleaks.findings) {
    const row = verdict.byPackage.get(packageOf(g.File));
    if (row) row.gitleaks++;
  }

  print("Real-code corpus: popular packages as published (npm tarballs, PyPI sdists), pinned");
  print(`  npm: ${NPM_PACKAGES.map(([n, v]) => `${n}@${v}`).join(" ")}`);
  print(`  PyPI: ${PYPI_PACKAGES.map(([n, v]) => `${n}==${v}`).join(" ")}`);
  print(
    `  ${fmtInt(files.length)} files, ${fmtMB(bytes)} in ${root} (Verdict skipped ${fmtInt(verdict.skipped)} lock, minified, map or binary files)`,
  );
  print();
  const perMB = (n) => (n / (bytes / MB)).toFixed(2);
  printTable([
    ["", "secret findings", "all findings", "secrets / MB", "all / MB"],
    [
      "Verdict (full built-in library)",
      fmtInt(verdict.secrets),
      fmtInt(verdict.all),
      perMB(verdict.secrets),
      perMB(verdict.all),
    ],
    [
      `gitleaks ${GITLEAKS_VERSION}`,
      fmtInt(gitleaks.findings.length),
      fmtInt(gitleaks.findings.length),
      perMB(gitleaks.findings.length),
      perMB(gitleaks.findings.length),
    ],
  ]);
  print("  target (issue 12): Verdict secret findings <= gitleaks', each one explained");
  print();
  printTable([
    ["by package", "MB", "Verdict secrets", "Verdict all", "gitleaks"],
    ...[...verdict.byPackage.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([p, r]) => [p, (r.bytes / MB).toFixed(1), fmtInt(r.secrets), fmtInt(r.all), fmtInt(r.gitleaks)]),
  ]);
  const byRule = new Map();
  for (const x of verdict.secretFindings) byRule.set(x.rule_id, (byRule.get(x.rule_id) ?? 0) + 1);
  print(
    `  Verdict secret findings by rule: ${
      [...byRule.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([r, n]) => `${r} ${n}`)
        .join(", ") || "none"
    }`,
  );
  print();

  if (misses) {
    misses.corpus = {
      verdict_secret_findings: verdict.secretFindings.map((x) => ({
        where: `${x.file}:${x.line}`,
        rule_id: x.rule_id,
        policy_id: x.policy_id,
        line: x.snippet,
      })),
      gitleaks_findings: gitleaks.findings.map((g) => {
        const text = g.Match ?? "";
        const at = g.Secret ? text.indexOf(g.Secret) : -1;
        return {
          where: `${g.File}:${g.StartLine}`,
          rule_id: g.RuleID,
          match: (at >= 0 ? maskSecret(text, at, at + g.Secret.length) : text).trim().slice(0, 300),
        };
      }),
    };
  }
  return { bytes, verdict: { secrets: verdict.secrets, all: verdict.all }, gitleaks: gitleaks.findings.length };
}
