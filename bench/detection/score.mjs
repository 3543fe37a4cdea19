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
  return [...score.groups.entries()].filter(([, c]) => c.positives > 0 && c.found === 0).map(([g]) => g).sort();
}

/** Masks a secret inside a line: keeps up to 4 characters either end of a long value, stars in between. */
export function maskSecret(line, start, end) {
  const secret = line.slice(start, end);
  const keep = secret.length >= 16 ? 4 : secret.length >= 8 ? 2 : 0;
  const masked = secret.slice(0, keep) + "*".repeat(Math.max(secret.length - 2 * keep, 0)) + secret.slice(secret.length - keep);
  return line.slice(0, start) + masked + line.slice(end);
}
