// pnpm bench:detection [--only secrets|insecure|corpus|speed] [--misses FILE]
//
// Verdict's detection quality on third-party labelled data, beside the tools that published it.
// Everything is fetched from the package registries by pinned version, generated
// deterministically and cached (VERDICT_BENCH_CACHE, default $HOME/.cache/verdict/detection):
//   secrets   gitleaks' own rule samples (tps / fps of cmd/generate/config/rules/*.go, from its Go
//             module); Verdict's engine and `gitleaks dir` on the same files; recall, fp rate,
//             families without recall. Then a dev set that is not gitleaks' (KICS' secret tests,
//             credential files written from their formats' docs): recall, negatives flagged,
//             positives found by provider rules, both tools (detection/secrets-devset.mjs).
//   insecure  other tools' labelled tests (gosec samples, bandit examples, eslint-plugin-security
//             RuleTester cases, KICS Dockerfile/Kubernetes query tests), within what each Verdict
//             policy claims (bench/detection/insecure.mjs, CLAIMS); recall, negatives flagged.
//   corpus    ~105 MB of popular npm and PyPI packages (pinned): secret findings, all findings and
//             findings per MB for Verdict and gitleaks, every secret finding listed with --findings.
//   speed     on the same corpus: engine (one thread) vs ripgrep -j1 with the same patterns, and
//             gitleaks dir vs the engine and vs Verdict's API end to end (all-in-one started here).
// Verdict is imported from the built packages (`pnpm run build` first) of VERDICT_ROOT, default
// this repository, so a worktree's rules can be measured with this script. `--misses FILE` writes
// every missed true positive and every flagged false positive as JSON, for the rule authors.
import { writeFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import { print } from "./common.mjs";
import { holdCache } from "./detection/cache.mjs";
import { runInsecure } from "./detection/insecure.mjs";
import { runCorpus } from "./detection/realcode.mjs";
import { runSecrets } from "./detection/secrets.mjs";
import { runSpeed } from "./detection/speed.mjs";

const PARTS = { secrets: runSecrets, insecure: runInsecure, corpus: runCorpus, speed: runSpeed };

const { values } = parseArgs({
  options: { only: { type: "string" }, misses: { type: "string" }, findings: { type: "string" } },
});
if (values.only && !PARTS[values.only]) {
  process.stderr.write(`--only must be one of ${Object.keys(PARTS).join(", ")}\n`);
  process.exit(2);
}
// --findings is --misses under the name that fits the corpus part (findings to explain).
const out = values.misses ?? values.findings;
await holdCache();
const misses = out ? {} : undefined;
for (const [name, part] of Object.entries(PARTS)) {
  if (values.only && values.only !== name) continue;
  await part({ misses });
}
if (out) {
  writeFileSync(out, `${JSON.stringify(misses, null, 1)}\n`);
  print(`Misses and findings to explain written to ${out}`);
}
