// One secret, one finding.
import { mergeRanges, type Range } from "./redaction.js";
import type { Hit, Reporting } from "./engineTypes.js";

/**
 * One secret, one finding: a generic rule (a password assignment, any high-entropy value)
 * yields to a specific rule (a token format) that found the same secret, whether that finding
 * is reported or suppressed, so silencing a token silences it completely; of two generic rules
 * on the same secret (a password assignment and the generic secret rule), the one of the more
 * severe policy reports it, or the one listed first.
 */
export function withoutGenericDuplicates(hits: Hit[]): Hit[] {
  const isSecret = (h: Hit) => h.rule.pattern.redact && h.secret !== undefined;
  const isGenericSecret = (h: Hit) => isSecret(h) && h.rule.pattern.generic;
  const first = new Map<string, Hit>();
  for (const h of hits) {
    if (!isGenericSecret(h)) continue;
    const key = `${h.secret!.start}:${h.secret!.end}`;
    const seen = first.get(key);
    if (!seen || outranks(h.rule, seen.rule)) first.set(key, h);
  }
  const notRepeated = (h: Hit) => !isGenericSecret(h) || first.get(`${h.secret!.start}:${h.secret!.end}`) === h;
  const specific = mergeRanges(hits.filter((h) => isSecret(h) && !h.rule.pattern.generic).map((h) => h.secret!));
  if (!specific.length) return hits.filter(notRepeated);
  const overlapsSpecific = (r: Range) => {
    // Binary search over the sorted, merged ranges of specific secrets.
    let lo = 0;
    let hi = specific.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = specific[mid]!;
      if (s.end <= r.start) lo = mid + 1;
      else if (s.start >= r.end) hi = mid - 1;
      else return true;
    }
    return false;
  };
  return hits.filter((h) => notRepeated(h) && !(isGenericSecret(h) && overlapsSpecific(h.secret!)));
}

const SEVERITY_RANK: Readonly<Record<string, number>> = { error: 3, warning: 2, info: 1 };

function outranks(a: Reporting, b: Reporting): boolean {
  const ra = SEVERITY_RANK[a.policy.severity] ?? 0;
  const rb = SEVERITY_RANK[b.policy.severity] ?? 0;
  return ra !== rb ? ra > rb : a.order < b.order;
}
