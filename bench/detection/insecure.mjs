// Insecure code: other tools' published test cases (insecure-sources.mjs), scored within what
// Verdict's policies claim.
//
// CLAIMS maps each tool's rule (or, for bandit, each example file, which its functional test
// labels as a whole) to the one Verdict policy that claims that class of problem. A case whose
// rule is not in the table is out of scope: listed, not counted. Where a Verdict policy claims
// less than the other tool's rule (e.g. MD5 only for passwords), the rule is out of scope or a
// `scope` predicate keeps only the positives inside the claim. Scoring, per case: a positive is
// found when the mapped policy reports a finding in any of the case's files; a negative is
// flagged when the mapped policy reports anything in it. Policies that cover several classes
// (dockerfile-security, kubernetes-security) also name the class: `rules` matches the ids of the
// Verdict rules that count, loosely (a word of the id), so renamed rules still count. Without it a
// KICS negative for one query (say, host namespaces) would count as flagged because the same file
// has an untagged image, which is a true finding of another class.
import { Buffer } from "node:buffer";
import { BUILTIN_POLICIES, fmtInt, print, printTable } from "../common.mjs";
import { codeqlDir, loadCodeqlCases, readManifest, scoreCodeql } from "./codeql.mjs";
import { insecureCases, SOURCES } from "./insecure-sources.mjs";
import { runOwasp } from "./owasp.mjs";
import { percent, scoreCases } from "./score.mjs";
import { scanAll, verdictEngine } from "./secrets.mjs";

const onlyIf = (re) => (c) => !c.positive || c.files.some((f) => re.test(f.content));
const HTTP_INPUT = /\.URL\.Query\(\)|\.(?:Post)?FormValue\(|\.Header\.Get\(/;

/** tool -> rule -> { policy, rules?, scope? } : reviewed by hand, one line per claimed class. */
export const CLAIMS = {
  gosec: {
    G101: { policy: "hardcoded-credentials" }, // hard-coded credentials
    // G201 and G202 each count only Verdict's rules of their class: a G201 negative (no format
    // string) that concatenates a variable into SQL is a true finding of G202's class.
    G201: { policy: "sql-injection", rules: /sprintf|format/ }, // SQL built with format strings
    G202: { policy: "sql-injection", rules: /concat|append/ }, // SQL built by concatenation
    // Taint: gosec's negatives are SQL built from variables that it traced to no input; Verdict
    // claims the construction itself (concatenation, formatting of variables), not the data's
    // source, so only the positives are within its claim.
    G701: { policy: "sql-injection", scope: (c) => c.positive }, // SQL injection (taint)
    G203: { policy: "xss-sinks" }, // unescaped data in HTML templates (template.HTML)
    G705: { policy: "xss-sinks" }, // XSS (taint)
    G204: { policy: "command-injection" }, // subprocess launched with variable
    G702: { policy: "command-injection" }, // command injection (taint)
    // G402 also covers TLS versions and cipher suites; Verdict claims disabled verification only.
    G402: { policy: "tls-verification-disabled", scope: onlyIf(/InsecureSkipVerify/) },
    G405: { policy: "weak-cryptography" }, // DES / RC4 encryption
    G502: { policy: "weak-cryptography" }, // crypto/des imported
    G503: { policy: "weak-cryptography" }, // crypto/rc4 imported
    // SSRF and path traversal (taint): Verdict claims HTTP request input, not the environment.
    G704: { policy: "server-side-request-forgery", scope: onlyIf(HTTP_INPUT) },
    G703: { policy: "path-traversal", scope: onlyIf(HTTP_INPUT) },
  },
  bandit: {
    "subprocess_shell.py": { policy: "command-injection" }, // B602/B604 shell=True
    "os-popen.py": { policy: "command-injection" }, // B605
    "eval.py": { policy: "dangerous-eval" }, // B307
    "ciphers.py": { policy: "weak-cryptography" }, // B304 weak ciphers
    "cipher-modes.py": { policy: "weak-cryptography" }, // B305 ECB
    "pickle_deserialize.py": { policy: "unsafe-deserialization" }, // B301 pickle
    "yaml_load.py": { policy: "unsafe-deserialization" }, // B506
    "requests-ssl-verify-disabled.py": { policy: "tls-verification-disabled" }, // B501
    "unverified_context.py": { policy: "tls-verification-disabled" }, // B323
    "flask_debug.py": { policy: "debug-mode-enabled" }, // B201
    "sql_statements.py": { policy: "sql-injection" }, // B608
    "django_sql_injection_extra.py": { policy: "sql-injection" }, // B610
    "django_sql_injection_raw.py": { policy: "sql-injection" }, // B611
    "mark_safe.py": { policy: "xss-sinks" }, // B308
    "mark_safe_insecure.py": { policy: "xss-sinks" }, // B703
    "mark_safe_secure.py": { policy: "xss-sinks" }, // B703 negative
    "markupsafe_markup_xss.py": { policy: "xss-sinks" }, // B704
    "markupsafe_markup_xss_extend_markup_names.py": { policy: "xss-sinks" }, // B704
    "markupsafe_markup_xss_allowed_calls.py": { policy: "xss-sinks" }, // B704
    "jinja2_templating.py": { policy: "xss-sinks" }, // B701 autoescape=False
    "hardcoded-passwords.py": { policy: "hardcoded-credentials" }, // B105-B107
  },
  "eslint-plugin-security": {
    // The rule also reports require("child_process") itself; Verdict claims exec of variables.
    "detect-child-process": {
      policy: "command-injection",
      scope: (c) => !c.positive || c.errors?.some((e) => !/^Found require\(/.test(e)),
    },
    "detect-eval-with-expression": { policy: "dangerous-eval" },
    "detect-disable-mustache-escape": { policy: "xss-sinks" },
  },
  kics: {
    "dockerfile/last_user_is_root": { policy: "dockerfile-security", rules: /root|user/ },
    "dockerfile/image_version_using_latest": { policy: "dockerfile-security", rules: /latest|tag/ },
    "dockerfile/image_version_not_explicit": { policy: "dockerfile-security", rules: /latest|tag/ },
    "k8s/container_is_privileged": { policy: "kubernetes-security", rules: /privileged/ },
    "k8s/containers_running_as_root": { policy: "kubernetes-security", rules: /root/ },
    "k8s/privilege_escalation_allowed": { policy: "kubernetes-security", rules: /escalation/ },
    "k8s/containers_with_added_capabilities": { policy: "kubernetes-security", rules: /capabilit/ },
    "k8s/containers_with_sys_admin_capabilities": { policy: "kubernetes-security", rules: /capabilit/ },
    "k8s/docker_daemon_socket_is_exposed_to_containers": { policy: "kubernetes-security", rules: /socket/ },
    "k8s/shared_host_ipc_namespace": { policy: "kubernetes-security", rules: /host/ },
    "k8s/shared_host_network_namespace": { policy: "kubernetes-security", rules: /host/ },
    "k8s/shared_host_pid_namespace": { policy: "kubernetes-security", rules: /host/ },
    "k8s/root_container_not_mounted_as_read_only": {
      policy: "kubernetes-security",
      rules: /read-?only|writable|root-?fs|filesystem/,
    },
    "k8s/invalid_image": { policy: "kubernetes-security", rules: /latest|tag/ },
    "cicd/github/run_block_injection": { policy: "ci-workflow-security", rules: /run-injection/ },
    "cicd/github/script_block_injection": { policy: "ci-workflow-security", rules: /script-injection/ },
    "cicd/github/unpinned_actions_full_length_commit_sha": { policy: "ci-workflow-security", rules: /unpinned/ },
    "cicd/github/unsecured_commands": { policy: "ci-workflow-security", rules: /unsecure/ },
    "terraform/aws/s3_bucket_acl_allows_read_or_write_to_all_users": {
      policy: "terraform-security",
      rules: /public-acl/,
    },
    "terraform/aws/s3_bucket_acl_allows_read_to_any_authenticated_user": {
      policy: "terraform-security",
      rules: /public-acl/,
    },
    "terraform/aws/security_group_with_unrestricted_access_to_ssh": { policy: "terraform-security", rules: /open-ssh/ },
    "terraform/aws/remote_desktop_port_open_to_internet": { policy: "terraform-security", rules: /open-rdp/ },
    "terraform/aws/iam_policies_with_full_privileges": { policy: "terraform-security", rules: /iam-wildcard/ },
    "terraform/aws/iam_role_with_full_privileges": { policy: "terraform-security", rules: /iam-wildcard/ },
    "terraform/aws/db_instance_storage_not_encrypted": { policy: "terraform-security", rules: /unencrypted/ },
    "terraform/aws/rds_database_cluster_not_encrypted": { policy: "terraform-security", rules: /unencrypted/ },
    "terraform/aws/aurora_with_disabled_at_rest_encryption": { policy: "terraform-security", rules: /unencrypted/ },
    "terraform/aws/ebs_volume_encryption_disabled": { policy: "terraform-security", rules: /unencrypted/ },
    "terraform/aws/efs_not_encrypted": { policy: "terraform-security", rules: /unencrypted/ },
    "terraform/aws/elasticache_replication_group_not_encrypted_at_rest": {
      policy: "terraform-security",
      rules: /unencrypted/,
    },
    "terraform/aws/cloudtrail_logging_disabled": { policy: "terraform-security", rules: /logging/ },
    "terraform/aws/cloudfront_without_minimum_protocol_tls_1.2": { policy: "terraform-security", rules: /tls/ },
    "terraform/gcp/cloud_storage_bucket_is_publicly_accessible": {
      policy: "terraform-security",
      rules: /public-member/,
    },
    "terraform/gcp/cloud_storage_anonymous_or_publicly_accessible": {
      policy: "terraform-security",
      rules: /public-member/,
    },
    "terraform/gcp/ssh_access_is_not_restricted": { policy: "terraform-security", rules: /open-ssh/ },
    "terraform/gcp/rdp_access_is_not_restricted": { policy: "terraform-security", rules: /open-rdp/ },
    "terraform/gcp/google_compute_subnetwork_logging_disabled": { policy: "terraform-security", rules: /logging/ },
    "terraform/azure/storage_container_is_publicly_accessible": { policy: "terraform-security", rules: /public-blob/ },
    "terraform/azure/rdp_is_exposed_to_the_internet": { policy: "terraform-security", rules: /open-rdp/ },
    "terraform/azure/ssh_is_exposed_to_the_internet": { policy: "terraform-security", rules: /open-ssh/ },
    "terraform/azure/storage_account_not_using_latest_tls_encryption_version": {
      policy: "terraform-security",
      rules: /tls/,
    },
  },
};

/** Out-of-scope classes worth a word: Verdict has a rule nearby but claims less. */
export const NOT_CLAIMED = {
  "gosec G401 G501 G505 G406 G506 G507, bandit crypto-md5.py hashlib_new_insecure_functions.py":
    "Verdict claims MD5/SHA-1 for password hashing only, not every digest",
  "gosec G404, bandit random_module.py":
    "Verdict claims predictable randomness for tokens, keys, cookies and session values only",
  "kics dockerfile/add_instead_of_copy": "Verdict claims ADD of remote URLs only",
  "kics terraform/aws/s3_bucket_allows_public_acl s3_bucket_without_ignore_public_acl s3_bucket_without_restriction_of_public_bucket":
    "Verdict reports a Block Public Access setting switched off by itself (AWS recommends all four on); KICS only where the bucket is also public",
  "kics dockerfile/missing_user_instruction":
    "Verdict claims an explicit USER root as the final user, not a missing USER",
  "bandit os_system.py popen_wrappers.py exec.py":
    "every command or code string in these files is a constant; Verdict claims commands and code built from variables",
  "gosec G304, G703 and G704 environment positives":
    "Verdict's Go path and address rules claim HTTP request input (read within the handler); G304, and G703's and G704's positives that read the environment or the command line, count those as input too",
  "gosec G709":
    "gob and encoding/xml decode into the caller's types; Verdict claims deserializers that instantiate arbitrary types or run code (pickle, yaml.load, ObjectInputStream …)",
  "gosec G701 negatives":
    "taint judgments (SQL built from variables traced to no input); Verdict claims the construction, so G701's positives count and its negatives do not",
};

/**
 * CodeQL's query tests (codeql.mjs) under VERDICT_CODEQL_TESTS: the scores by language, by CWE
 * and in all, or why they were skipped. Adds the misses to `misses.codeql`.
 */
function runCodeql(engine, misses) {
  const dir = codeqlDir();
  if (!dir)
    return {
      skipped:
        "VERDICT_CODEQL_TESTS is not set (the folders of github/codeql that bench/detection/codeql-tests.json names; docs/detection.md)",
    };
  const manifest = readManifest();
  const { cases, problems } = loadCodeqlCases(dir, manifest);
  const { inScope, unclaimed } = scoreCodeql(
    cases,
    BUILTIN_POLICIES,
    (file, content) => scanAll(engine, file, Buffer.from(content, "utf8")).findings,
  );
  const hit = (c) => c.hits.length > 0;
  const group = (key) =>
    scoreCases(
      inScope.map((c) => ({ ...c, group: key(c) })),
      hit,
    );
  if (misses) {
    const entry = (c) => ({
      file: c.file,
      lines: c.line === c.end ? c.line : `${c.line}-${c.end}`,
      cwe: c.cwe,
      language: c.language,
      label: c.how,
      ...(c.hits.length ? { findings: c.hits.map((x) => ({ rule_id: x.rule_id, line: x.line })) } : {}),
    });
    misses.codeql = {
      missed_positives: inScope.filter((c) => c.positive && !hit(c)).map(entry),
      flagged_negatives: inScope.filter((c) => !c.positive && hit(c)).map(entry),
    };
  }
  return {
    manifest,
    problems,
    files: new Set(cases.map((c) => c.file)).size,
    score: group(() => "all"),
    byLanguage: group((c) => c.language),
    byCwe: group((c) => `CWE-${c.cwe}`),
    unclaimed: new Set(unclaimed.map((c) => `${c.language} CWE-${c.cwe}`)),
  };
}

/** Splits cases into in-scope (with their policy) and out of scope. */
export function applyClaims(cases, claims = CLAIMS) {
  const inScope = [];
  const outOfScope = [];
  for (const c of cases) {
    const claim = claims[c.source]?.[c.tool_rule];
    if (!claim || (claim.scope && !claim.scope(c))) outOfScope.push(c);
    else inScope.push({ ...c, policy: claim.policy, ...(claim.rules ? { rules: claim.rules } : {}) });
  }
  return { inScope, outOfScope };
}

export function runInsecure({ misses }) {
  const { inScope, outOfScope } = applyClaims(insecureCases());
  const { engine, policies } = verdictEngine();
  const known = new Set(policies.map((p) => p.id));
  const findingsOf = new Map();
  for (const c of inScope) {
    if (!known.has(c.policy)) throw new Error(`CLAIMS names ${c.policy}, which is not a built-in policy`);
    const findings = c.files.flatMap((f) =>
      scanAll(engine, f.path, Buffer.from(f.content, "utf8")).findings.map((x) => ({ ...x, file: f.path })),
    );
    findingsOf.set(
      c,
      findings.filter((x) => x.policy_id === c.policy && (!c.rules || c.rules.test(x.rule_id))),
    );
  }
  const reported = (c) => findingsOf.get(c).length > 0;
  const bySource = scoreCases(
    inScope.map((c) => ({ ...c, group: c.source, ref: c })),
    (c) => reported(c.ref),
  );
  const byPolicy = scoreCases(
    inScope.map((c) => ({ ...c, group: c.policy, ref: c })),
    (c) => reported(c.ref),
  );

  print("Insecure code: other tools' labelled tests, within what Verdict's policies claim");
  print(
    `  ${Object.entries(SOURCES)
      .map(([name, s]) => `${name === "eslint" ? "eslint-plugin-security" : name} ${s.version}`)
      .join(", ")}`,
  );
  print(
    `  ${fmtInt(inScope.length)} cases in scope, ${fmtInt(outOfScope.length)} out of scope (no Verdict policy claims their class)`,
  );
  print();
  const rows = (score) =>
    [...score.groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([g, c]) => [
        g,
        fmtInt(c.positives),
        percent(c.found, c.positives),
        fmtInt(c.negatives),
        percent(c.flagged, c.negatives),
      ]);
  const codeql = runCodeql(engine, misses);
  const t = { ...bySource.total };
  const sourceRows = rows(bySource);
  if (codeql.score) {
    const c = codeql.score.total;
    for (const k of Object.keys(t)) t[k] += c[k];
    sourceRows.push([
      "codeql (lines)",
      fmtInt(c.positives),
      percent(c.found, c.positives),
      fmtInt(c.negatives),
      percent(c.flagged, c.negatives),
    ]);
  }
  printTable([
    ["by source", "positives", "recall", "negatives", "flagged"],
    ...sourceRows,
    ["all", fmtInt(t.positives), percent(t.found, t.positives), fmtInt(t.negatives), percent(t.flagged, t.negatives)],
  ]);
  if (!codeql.score) print(`  codeql: skipped: ${codeql.skipped}`);
  print();
  printTable([["by Verdict policy", "positives", "recall", "negatives", "flagged"], ...rows(byPolicy)]);
  print("  targets (issue 12): recall >= 85%, negatives flagged <= 5%");
  print();
  if (codeql.score) {
    print(
      `CodeQL's query tests (${codeql.manifest.repo}, ${codeql.manifest.folders.length} folders, ${fmtInt(codeql.files)} files): labelled lines, within what Verdict's policies claim`,
    );
    if (codeql.problems.length) for (const p of codeql.problems) print(`  warning: ${p}`);
    for (const [title, score] of [
      ["by language", codeql.byLanguage],
      ["by CWE", codeql.byCwe],
    ])
      printTable([[title, "must flag", "found", "must not flag", "flagged"], ...rows(score)]);
    if (codeql.unclaimed.size)
      print(`  not claimed for the language (listed, not counted): ${[...codeql.unclaimed].sort().join(", ")}`);
    print("  targets (issue 28): must-flag recall >= 75%, must-not-flag lines flagged <= 3%");
    print();
  }
  const outRules = new Map();
  for (const c of outOfScope)
    outRules.set(`${c.source} ${c.tool_rule}`, (outRules.get(`${c.source} ${c.tool_rule}`) ?? 0) + 1);
  print(
    `  Out of scope: ${outRules.size} rules of the other tools (${fmtInt(outOfScope.length)} cases); claimed less than the peer's rule:`,
  );
  for (const [rules, why] of Object.entries(NOT_CLAIMED)) print(`    ${rules}: ${why}`);
  print("  Semgrep runs beside Verdict on OWASP Benchmark below (the other suites are its peers' own tests).");
  print();

  if (misses) {
    const entry = (c) => ({
      id: c.id,
      source: c.source,
      tool_rule: c.tool_rule,
      policy: c.policy,
      ...(c.rules ? { rules: String(c.rules) } : {}),
      ...(c.expected !== undefined ? { expected: c.expected } : {}),
      files: c.files,
    });
    misses.insecure = {
      missed_positives: inScope.filter((c) => c.positive && !reported(c)).map(entry),
      flagged_negatives: inScope
        .filter((c) => !c.positive && reported(c))
        .map((c) => ({
          ...entry(c),
          findings: findingsOf
            .get(c)
            .map((x) => ({ rule_id: x.rule_id, file: x.file, line: x.line, message: x.message })),
        })),
      out_of_scope: [...outRules.entries()].map(([rule, cases]) => ({ rule, cases })),
    };
  }
  const owasp = runOwasp({ engine, builtins: BUILTIN_POLICIES, misses });
  return { total: bySource.total, owasp };
}
