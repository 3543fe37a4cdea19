// CodeQL's published query tests (github.com/github/codeql, `<lang>/ql/test/query-tests/…`), as
// a labelled dev set for the insecure-code policies: each test folder is a few source files
// whose lines CodeQL's authors marked must-flag or must-not-flag. The manifest beside this file
// (codeql-tests.json) names, per language and CWE, the folders and files used and the commit
// each file was read at; the files themselves are not in this repository. Point
// VERDICT_CODEQL_TESTS at a directory holding them at the repository's paths (docs/detection.md
// says how to get one with git); without it this part is skipped with that reason.
//
// Labels, from the tests' own annotations (parseCodeqlLabels):
// - inline expectations (a `$` comment): `$ Alert`, `$ result=BAD`, `$ MISSING: Alert` (a must-flag
//   that CodeQL itself misses) are must-flag; `$ SPURIOUS: …` (CodeQL flags it wrongly) and
//   `$ result=OK` are must-not-flag; `$ Source` and other tags label nothing;
// - older tests' comments on the line: `NOT OK` / `BAD` must-flag, `OK` / `GOOD` must-not-flag;
//   a comment line of its own that starts with one of them labels the code below it up to the
//   next blank line, the next such comment or the end of the enclosing block, as one case (found or flagged when any line of it is reported), unless a
//   line there carries its own label;
// - a test whose sources have neither: the `#select` rows of its `.expected` file (the alerts
//   CodeQL's query is expected to report, `| File.java:7:44:7:69 | …`) are must-flag lines.
// A must-flag case is found when a policy that claims the folder's CWE for the file's language
// (its `claims`) reports a finding on the case's lines; a must-not-flag case is flagged the same
// way. Folders whose CWE no policy claims for their language are listed, not counted.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

export const MANIFEST_FILE = fileURLToPath(new URL("./codeql-tests.json", import.meta.url));

const HASH_COMMENT = new Set(["python", "ruby"]);

/** The language of a test file, by its extension (the names policies' claims use). */
export function languageOf(path) {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return (
    {
      py: "python",
      rb: "ruby",
      js: "javascript",
      mjs: "javascript",
      cjs: "javascript",
      jsx: "javascript",
      ts: "typescript",
      tsx: "typescript",
      java: "java",
      kt: "kotlin",
      go: "go",
      cs: "csharp",
      php: "php",
    }[ext] ?? ext
  );
}

/**
 * What an annotation says: true must-flag, false must-not-flag, undefined no label. Besides
 * `Alert` and `result=BAD`, a query's own tag (`$xss`, `$hasXPathInjection`,
 * `$unsafeDeserialization`, as Java's tests name their expectations) is must-flag; `Source` and
 * `Sink` mark a flow's ends, not an alert.
 */
function inlineExpectation(tags) {
  if (/\bSPURIOUS:/.test(tags)) return false;
  if (/\bMISSING:/.test(tags)) return true;
  const names = tags
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => /^[A-Za-z_]\w*/.exec(t)?.[0]);
  if (/(?:^|\s)result=OK\b/.test(tags)) return false;
  if (names.some((n) => n && n !== "Source" && n !== "Sink")) return true;
  return undefined;
}

/** What a plain comment says, when it starts with a verdict word: true, false or undefined. */
function commentVerdict(comment) {
  const m = /^\s*(NOT OK|BAD|Bad|OK|GOOD|Good)\b/.exec(comment);
  if (!m) return undefined;
  return m[1] === "NOT OK" || m[1].toUpperCase() === "BAD";
}

/**
 * The comment of a line (text after the comment marker) and whether code precedes it. The marker
 * is `#` (Python, Ruby; not `#{` of a Ruby interpolation) or `//` (the others; not `://` of a URL).
 */
function splitComment(line, language) {
  const re = HASH_COMMENT.has(language) ? /#(?!\{)/g : /(?<!:)\/\//g;
  let m;
  while ((m = re.exec(line))) {
    const code = line.slice(0, m.index);
    return { code, comment: line.slice(m.index + m[0].length) };
  }
  return { code: line, comment: undefined };
}

/**
 * The first line (1-based) of the statement that line `n` ends or continues: a label sits on the
 * line of the alert's expression, which can be the second line of a call (`print(\n "…" + x)`),
 * while a finding is reported where the statement starts. Goes back while the line before ends
 * open (`(`, `[`, `,`, `+`, `=`, `({`) or this line starts with an operator (`+`, `.`, `?`, `:`).
 */
function statementStart(lines, n, language) {
  let start = n;
  while (start > 1) {
    const previous = splitComment(lines[start - 2], language).code.trimEnd();
    const current = splitComment(lines[start - 1], language).code.trimStart();
    if (!previous.trim()) break;
    if (!/(?:[([,+=]|\(\{)$/.test(previous) && !/^(?:[+.?:]|&&|\|\|)/.test(current)) break;
    start--;
  }
  return start;
}

/**
 * A test file's labelled cases: { line, end, positive, how } (1-based, inclusive), from its
 * inline expectations and comments, and `alertLines` (the `.expected` `#select` rows for this
 * file) where the file has no inline label at all.
 */
export function parseCodeqlLabels(text, language, alertLines = []) {
  const lines = text.split(/\r?\n/);
  const cases = [];
  const labelled = new Set();
  const blocks = [];
  lines.forEach((raw, i) => {
    const { code, comment } = splitComment(raw, language);
    if (comment === undefined) return;
    const dollar = /^\s*\$\s*(.*)$/.exec(comment) ?? /\s\$\s*((?:Alert|MISSING|SPURIOUS|result=)[^]*)$/.exec(comment);
    if (dollar) {
      const positive = inlineExpectation(dollar[1]);
      if (positive !== undefined && code.trim()) {
        cases.push({ line: statementStart(lines, i + 1, language), end: i + 1, positive, how: "inline expectation" });
        labelled.add(i + 1);
      }
      return;
    }
    const verdict = commentVerdict(comment);
    if (verdict === undefined) return;
    if (code.trim()) {
      cases.push({ line: statementStart(lines, i + 1, language), end: i + 1, positive: verdict, how: "comment" });
      labelled.add(i + 1);
    } else blocks.push({ at: i, positive: verdict, indent: /^\s*/.exec(raw)[0].length });
  });
  if (!cases.length)
    for (const line of new Set(alertLines)) {
      cases.push({ line: statementStart(lines, line, language), end: line, positive: true, how: "expected alert" });
      labelled.add(line);
    }
  for (const b of blocks) {
    const covered = [];
    for (let j = b.at + 1; j < lines.length && lines[j].trim(); j++) {
      const { code, comment } = splitComment(lines[j], language);
      if (/^\s*/.exec(lines[j])[0].length < b.indent) break; // the enclosing block closes
      if (!code.trim() && commentVerdict(comment) !== undefined) break; // the next labelled block
      if (code.trim()) covered.push(j + 1);
    }
    if (covered.length && !covered.some((l) => labelled.has(l)))
      cases.push({ line: covered[0], end: covered.at(-1), positive: b.positive, how: "comment block" });
  }
  return cases.sort((a, b) => a.line - b.line);
}

/** The alert lines of an `.expected` file's `#select` section, by file (as the rows name it). */
export function selectAlertLines(expected) {
  const byFile = new Map();
  let inSelect = false;
  for (const row of expected.split(/\r?\n/)) {
    if (/^[#a-zA-Z]/.test(row)) inSelect = row.trim() === "#select";
    else if (inSelect) {
      const m = /^\|\s*([^|:]+):(\d+):\d+:\d+:\d+\s*\|/.exec(row);
      if (m) byFile.set(m[1].trim(), [...(byFile.get(m[1].trim()) ?? []), Number(m[2])]);
    }
  }
  return byFile;
}

/** The manifest: { repo, folders: [{ language, cwe, path, files: [{ path, commit, chars }] }] }. */
export function readManifest(file = MANIFEST_FILE) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/**
 * The claim test: (cwe, language) -> the rule ids' predicate of the policies claiming it, or
 * undefined when none does. A policy's `claims.cwe["CWE-N"]` lists its rules (or "*") and
 * `claims.languages` the languages it runs on (typescript files count javascript's claims too).
 */
export function claimIndex(builtins) {
  return (cwe, language) => {
    const langs = language === "typescript" ? ["typescript", "javascript"] : [language];
    const policies = builtins.filter(
      (p) => p.claims?.cwe?.[`CWE-${cwe}`] && langs.some((l) => p.claims.languages?.includes(l)),
    );
    if (!policies.length) return undefined;
    return (finding) =>
      policies.some(
        (p) =>
          p.id === finding.policy_id &&
          (p.claims.cwe[`CWE-${cwe}`].includes("*") || p.claims.cwe[`CWE-${cwe}`].includes(finding.rule_id)),
      );
  };
}

/**
 * The labelled cases of the manifest's folders under `dir`: { folder, file, language, cwe, line,
 * end, positive, how, content }. Files missing or of another length than the manifest says are
 * reported in `problems` (a different version would carry different labels).
 */
export function loadCodeqlCases(dir, manifest = readManifest()) {
  const cases = [];
  const problems = [];
  for (const folder of manifest.folders) {
    const read = (f) => {
      const full = join(dir, folder.path, f.path);
      if (!existsSync(full)) {
        problems.push(`${folder.path}/${f.path} is missing`);
        return undefined;
      }
      const text = readFileSync(full, "utf8");
      // Characters as code points (an emoji is one; JavaScript's length counts it as two).
      const chars = [...text].length;
      if (f.chars !== undefined && chars !== f.chars)
        problems.push(`${folder.path}/${f.path} has ${chars} characters, the manifest's version ${f.chars}`);
      return text;
    };
    const alerts = new Map();
    for (const f of folder.files.filter((x) => x.path.endsWith(".expected"))) {
      const text = read(f);
      if (text !== undefined)
        for (const [file, lines] of selectAlertLines(text)) alerts.set(file, [...(alerts.get(file) ?? []), ...lines]);
    }
    for (const f of folder.files.filter((x) => !x.path.endsWith(".expected"))) {
      const content = read(f);
      if (content === undefined) continue;
      const language = languageOf(f.path);
      for (const c of parseCodeqlLabels(content, language, alerts.get(f.path) ?? []))
        cases.push({ folder: folder.path, file: `${folder.path}/${f.path}`, language, cwe: folder.cwe, content, ...c });
    }
  }
  return { cases, problems };
}

/**
 * Scores the cases: each case is found / flagged when a finding of a policy claiming its CWE for
 * its language lies on its lines. `scan(file, content)` returns the file's findings (scanned once
 * per file). Cases whose CWE no policy claims for their language go to `unclaimed`.
 */
export function scoreCodeql(cases, builtins, scan) {
  const claimOf = claimIndex(builtins);
  const findings = new Map();
  const inScope = [];
  const unclaimed = [];
  for (const c of cases) {
    const claimed = claimOf(c.cwe, c.language);
    if (!claimed) {
      unclaimed.push(c);
      continue;
    }
    if (!findings.has(c.file)) findings.set(c.file, scan(c.file, c.content));
    const hits = findings.get(c.file).filter((f) => f.line >= c.line && f.line <= c.end && claimed(f));
    inScope.push({ ...c, hits });
  }
  return { inScope, unclaimed };
}

export const codeqlDir = () => process.env.VERDICT_CODEQL_TESTS;
