// Where a keyword-gated rule's matches can stand, so that its second pass reads only those places
// instead of the whole file. A file with a rule's keyword somewhere made the rule a candidate, and
// a common keyword (`on_`, `uk`, `dify` in "modify") made hundreds of rules search thousands of
// files for the handful of places a match could begin:
// - **at a keyword** ("anchored"): a self-identifying token, `\b(uk[1-9]…)`, starts with a literal
//   whose lower-case form starts with one of the rule's keywords (leadingLiterals()). Every match
//   starts at an occurrence of a keyword, so the pattern is tried there only, anchored: the
//   matches of the whole-file search, which are leftmost-first and start at such occurrences. (In
//   a case-insensitive pattern RE2 also takes the Kelvin sign for `k` and the long s for `s`; the
//   keywords are ASCII, so a name spelled with those is not looked for.) The set's first pass finds
//   such a rule by its pattern with its large repeats opened (ruleSet.ts), not by its keyword.
// - **in its provider context** ("context"): a generic shape counts only where a keyword names it
//   within the context's distance before it (providerContext.ts). The pattern is searched from each
//   such keyword to the end of the line the context reaches, and each match found there is taken
//   as the whole file reads it (anchored at its start, with the whole text after it): a token that
//   would continue past that line is the one thing not looked for.
// - anywhere ("file"): every other rule (assignments, multi-line blocks, file-level gates).
// The engine's `wholeFiles` option searches every rule's whole file: the reference these are
// checked against (the fixtures, the benchmark's corpus).
import type RE2 from "re2";
import { namesAt, type CompiledContext } from "./providerContext.js";

export type Reach = "file" | "anchored" | "context";

/** One match of the second pass, with where it starts and ends in the file. */
export interface PassMatch {
  m: NonNullable<ReturnType<RE2["exec"]>>;
  start: number;
  end: number;
}

const MAX_LEADS = 64;

/**
 * The literals every match of `pattern` begins with, as far as they go (`\b(uk[1-9]…` gives `uk`,
 * `(?i:\blob)…` `lob`, `\b((?:dev-|sales-)[a-f0-9]…` `dev-` and `sales-`); undefined when some
 * match may begin with no literal at all. Only ASCII is read.
 */
export function leadingLiterals(pattern: string): string[] | undefined {
  const read = new LeadReader(pattern);
  const leads = read.alternation();
  return leads && read.at === pattern.length && leads.every((l) => l.length > 0) ? leads : undefined;
}

/**
 * Whether every match of `pattern` starts with one of `keywords` (lower-case ASCII): each of its
 * leading literals, lower-cased, starts with a keyword.
 */
export function startsAtKeyword(pattern: string, keywords: readonly string[]): boolean {
  const leads = leadingLiterals(pattern);
  return !!leads && leads.every((l) => keywords.some((k) => k.length > 0 && l.toLowerCase().startsWith(k)));
}

/** A reader of a pattern's leading literals (leadingLiterals()). */
class LeadReader {
  at = 0;
  constructor(private readonly p: string) {}

  /** The top level's alternatives, to the end of the pattern: each one's leads. */
  alternation(): string[] | undefined {
    const leads: string[] = [];
    for (;;) {
      const one = this.sequence();
      if (!one) return undefined;
      leads.push(...one.leads);
      if (leads.length > MAX_LEADS) return undefined;
      if (this.p[this.at] === "|") {
        this.at++;
        continue;
      }
      // A `)` that closes no group: not a pattern RE2 takes.
      if (this.at < this.p.length) return undefined;
      return leads;
    }
  }

  /**
   * One alternative: its leading literals, and whether they are the whole alternative (`whole`),
   * so that what follows its group continues them. Stops, skipping to the end of the alternative,
   * at the first thing that is not a literal.
   */
  private sequence(): { leads: string[]; whole: boolean } | undefined {
    let leads = [""];
    let whole = true;
    const stop = () => {
      whole = false;
      this.skipAlternative();
    };
    while (whole && this.at < this.p.length) {
      const c = this.p[this.at]!;
      if (c === "|" || c === ")") break;
      if (c === "\\") {
        const e = this.p[this.at + 1] ?? "";
        if (e === "b") {
          this.at += 2;
          continue;
        }
        if (/[A-Za-z0-9]/.test(e) || !this.literal(e, 2, (l) => (leads = leads.map((x) => x + l)))) stop();
        continue;
      }
      if (c === "(") {
        const flags = /^\(\?[a-zA-Z]*(?:-[a-zA-Z]*)?([:)])/.exec(this.p.slice(this.at));
        if (flags) {
          this.at += flags[0].length;
          // `(?i)`: flags for the rest of the enclosing group, no group of its own.
          if (flags[1] === ")") continue;
        } else if (this.p.startsWith("(?P<", this.at) || this.p.startsWith("(?<", this.at)) {
          this.at = this.p.indexOf(">", this.at) + 1;
        } else if (this.p[this.at + 1] === "?") return undefined;
        else this.at++;
        const group = this.groupLeads();
        if (!group) return undefined;
        const optional = /^(?:[?*]|\{0[,}])/.test(this.p.slice(this.at));
        if (!optional) leads = leads.flatMap((x) => group.leads.map((g) => x + g));
        if (leads.length > MAX_LEADS) return undefined;
        if (optional || !group.whole || /^[+{]/.test(this.p.slice(this.at))) stop();
        continue;
      }
      if (!this.literal(c, 1, (l) => (leads = leads.map((x) => x + l)))) stop();
    }
    return { leads, whole };
  }

  /** The leads of a group whose opener is read, and whether each is its whole alternative. */
  private groupLeads(): { leads: string[]; whole: boolean } | undefined {
    const leads: string[] = [];
    let whole = true;
    for (;;) {
      const one = this.sequence();
      if (!one) return undefined;
      leads.push(...one.leads);
      whole &&= one.whole;
      if (leads.length > MAX_LEADS) return undefined;
      const c = this.p[this.at];
      this.at++;
      if (c === ")") return { leads, whole };
      if (c !== "|") return undefined;
    }
  }

  /**
   * A literal character `c` taking `width` pattern characters: appended (through `add`) unless a
   * quantifier makes it optional or repeated; false where the literal stops (then nothing added,
   * or, for `c+` and `c{n}`, `c` added once).
   */
  private literal(c: string, width: number, add: (l: string) => void): boolean {
    const code = c.charCodeAt(0);
    if ("^$.*+?()[]{}|".includes(c) && width === 1) return false;
    if (code < 0x20 || code > 0x7e) return false;
    const after = this.p.slice(this.at + width);
    if (/^(?:[?*]|\{0[,}])/.test(after)) return false;
    add(c);
    this.at += width;
    return !/^[+{]/.test(after);
  }

  /** Past the rest of the current alternative: to its `|` or `)` at this depth, or the end. */
  private skipAlternative(): void {
    let depth = 0;
    let inClass = false;
    for (; this.at < this.p.length; this.at++) {
      const c = this.p[this.at];
      if (c === "\\") this.at++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") {
        inClass = true;
        if (this.p[this.at + 1] === "^") this.at++;
        if (this.p[this.at + 1] === "]") this.at++;
      } else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) return;
        depth--;
      } else if (c === "|" && depth === 0) return;
    }
  }
}

// An anchored attempt costs a call into RE2 (about a microsecond); the search reads about 400
// bytes in that time. Where keywords stand denser than one per this many bytes, the whole file is
// searched instead: the same matches, sooner.
const BYTES_PER_ATTEMPT = 256;

/** Sorted offsets of every keyword in `lower`, or undefined once there are more than `max`. */
function occurrences(lower: Buffer, keywords: readonly Buffer[], max: number): number[] | undefined {
  const at: number[] = [];
  for (const keyword of keywords) {
    for (let i = lower.indexOf(keyword); i !== -1; i = lower.indexOf(keyword, i + 1)) {
      if (at.length >= max) return undefined;
      at.push(i);
    }
  }
  return keywords.length > 1 ? at.sort((a, b) => a - b) : at;
}

/**
 * The matches of an "anchored" rule (`sticky`: its pattern, anchored): tried at each occurrence of
 * its keywords, past the end of the previous match. Returns false, having found nothing, when the
 * keywords stand too densely for that to pay: then search the whole file.
 */
export function* anchoredMatches(
  keywords: readonly Buffer[],
  sticky: RE2,
  content: Buffer,
  lower: Buffer,
): Generator<PassMatch, boolean> {
  const at = occurrences(lower, keywords, Math.ceil(content.length / BYTES_PER_ATTEMPT));
  if (!at) return false;
  let past = 0;
  for (const k of at) {
    if (k < past) continue;
    sticky.lastIndex = k;
    const m = sticky.exec(content);
    if (!m) continue;
    const end = k + (m[0] as unknown as Buffer).length;
    past = end;
    yield { m, start: k, end };
  }
  return true;
}

/** Offset of the end of the line that holds `offset` (its `\n`, or the end of the content). */
function lineEnd(content: Buffer, offset: number): number {
  const nl = content.indexOf(10, offset);
  return nl === -1 ? content.length : nl;
}

/**
 * The matches of a "context" rule (`re` its pattern, `sticky` anchored): searched from each of the
 * context's keywords that names a provider (as nearProvider() reads one) to the end of the line
 * the context's distance reaches, each taken as the whole file reads it. Every match
 * nearProvider() accepts starts in one of these windows. The expressions are asked for only when
 * there is a window (a file that mentions the keyword but never names the provider compiles
 * neither).
 */
export function* contextMatches(
  context: CompiledContext,
  regexes: () => { re: RE2; sticky: RE2 },
  content: Buffer,
  lower: Buffer,
): Generator<PassMatch> {
  // Past each keyword that names a provider: where a value it names can start, at the earliest.
  const after: number[] = [];
  for (const keyword of context.keywords)
    for (let k = lower.indexOf(keyword); k !== -1; k = lower.indexOf(keyword, k + 1))
      if (namesAt(content, k, keyword.length)) after.push(k + keyword.length);
  after.sort((a, b) => a - b);
  if (after.length === 0) return;
  const { re, sticky } = regexes();
  // A value starts at most `distance` bytes after its keyword's start: by the end of that line.
  const reach = (from: number) => lineEnd(content, Math.min(content.length, from + context.distance));
  let past = 0;
  for (let w = 0; w < after.length;) {
    // One window, merged with those of the next keywords that stand inside it.
    const lo = Math.max(past, after[w]!);
    let hi = reach(after[w++]!);
    while (w < after.length && after[w]! <= hi) hi = reach(after[w++]!);
    const view = content.subarray(0, hi);
    for (let pos = lo; pos < hi;) {
      re.lastIndex = pos;
      const found = re.exec(view);
      if (!found) break;
      sticky.lastIndex = found.index;
      const m = sticky.exec(content);
      if (!m) {
        pos = found.index + 1;
        continue;
      }
      const end = found.index + (m[0] as unknown as Buffer).length;
      pos = past = end > found.index ? end : found.index + 1;
      if (end > found.index) yield { m, start: found.index, end };
    }
  }
}
