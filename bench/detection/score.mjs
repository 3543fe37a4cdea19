// The scoring arithmetic of the detection benchmark, kept apart from any I/O so it can be read
// (and tested) on its own.

/** numerator / denominator as a percentage string with one decimal, "n/a" when nothing was counted. */
export function percent(numerator, denominator) {
  return denominator ? `${((100 * numerator) / denominator).toFixed(1)}%` : "n/a";
}

/**
 * Labelled cases scored by one tool. Each case is { positive: boolean, group: string } and
 * `reported(case)` says whether the tool flagged it. Returns the counts overall and per group:
 * recall = found positives / positives, flagged = flagged negatives / negatives.
 */
export function scoreCases(cases, reported) {
  const empty = () => ({ positives: 0, found: 0, negatives: 0, flagged: 0 });
  const total = empty();
  const groups = new Map();
  for (const c of cases) {
    const hit = Boolean(reported(c));
    if (!groups.has(c.group)) groups.set(c.group, empty());
    for (const counts of [total, groups.get(c.group)]) {
      if (c.positive) {
        counts.positives++;
        if (hit) counts.found++;
      } else {
        counts.negatives++;
        if (hit) counts.flagged++;
      }
    }
  }
  return { total, groups };
}

/** Groups that have positives and none of them found, sorted by name. */
export function groupsWithoutRecall(score) {
  return [...score.groups.entries()]
    .filter(([, c]) => c.positives > 0 && c.found === 0)
    .map(([g]) => g)
    .sort();
}

/** Masks a secret inside a line: keeps up to 4 characters either end of a long value, stars in between. */
export function maskSecret(line, start, end) {
  const secret = line.slice(start, end);
  const keep = secret.length >= 16 ? 4 : secret.length >= 8 ? 2 : 0;
  const masked =
    secret.slice(0, keep) + "*".repeat(Math.max(secret.length - 2 * keep, 0)) + secret.slice(secret.length - keep);
  return line.slice(0, start) + masked + line.slice(end);
}

/**
 * gitleaks' false-positive samples that are valid secrets of another gitleaks rule, by family:
 * reviewed by hand, one reason per family. A sample is set aside (scored neither way) only when
 * its family is listed here AND gitleaks itself reports the sample under a rule other than the
 * one the sample is a false positive of and other than its catch-all `generic-api-key`: by
 * gitleaks' own definitions the text is a secret, just not of the rule it tests. Every sample set
 * aside is printed with its family and reason; the raw figure (counting them) is printed too.
 */
export const VALID_ELSEWHERE = {
  cloudflare:
    "each of Cloudflare's three credentials (Global API key: 37 hex; API token: 40 base62; Origin CA key: v1.0-…) is listed as a false positive of the other two rules: it is a valid key of its own kind, which gitleaks' sibling rule reports too",
  anthropic:
    "an admin key (sk-ant-admin01-…) is listed as a false positive of the API-key rule and an API key (sk-ant-api03-…) of the admin-key rule: each is the other rule's format, which gitleaks' sibling rule reports too",
  curl: "a JSON Web Token with a valid header, sent as Basic credentials: not a Basic user:password, but a signed token all the same, which gitleaks' jwt rule reports too",
};

/**
 * Why a false-positive sample is a valid secret of another rule (VALID_ELSEWHERE), or undefined.
 * `gitleaksRules` are the rule ids gitleaks reports in the sample's file.
 */
export function validElsewhere(sample, gitleaksRules) {
  if (sample.kind !== "fp" || !Object.hasOwn(VALID_ELSEWHERE, sample.family)) return undefined;
  const others = gitleaksRules.filter((r) => r !== sample.rule_id && r !== "generic-api-key");
  return others.length ? { family: sample.family, rules: others, reason: VALID_ELSEWHERE[sample.family] } : undefined;
}
