// Leading lazy runs (`[\w.-]{0,50}?` before `key =`): searched without them, and each match
// extended back over them, which gives exactly the match of the whole pattern, about three times
// faster.

/**
 * A pattern's leading lazy run of ASCII characters, such as `[\w.-]{0,50}?` (the identifier before
 * a `key =` of the assignment rules): which bytes it takes and how many at most.
 */
export interface LazyPrefix {
  allowed: Uint8Array;
  max: number;
}

const LAZY_PREFIX = /^\[((?:\\[wd.\-_]|[A-Za-z0-9_.](?:-[A-Za-z0-9])?|-(?=\]))+)\]\{0,(\d+)\}\?/;

/**
 * Splits `[class]{0,n}?rest` into the class and `rest`, when the class is of ASCII characters and
 * `rest` has no alternation at its top level; else undefined. RE2 searches `rest` alone about
 * three times faster (the counted run at every position multiplies its DFA states), and the match
 * of the whole pattern follows from it exactly (extendBack()): its leftmost start is the leftmost
 * start of `rest`, extended back over at most n class characters, never before where the search
 * began; groups are numbered the same, as the run has none.
 */
export function lazyPrefix(pattern: string): { prefix: LazyPrefix; rest: string } | undefined {
  const head = LAZY_PREFIX.exec(pattern);
  if (!head) return undefined;
  const rest = pattern.slice(head[0].length);
  if (!rest || hasTopLevelAlternation(rest)) return undefined;
  const allowed = new Uint8Array(128);
  const allow = (from: number, to = from) => {
    for (let c = from; c <= to; c++) allowed[c] = 1;
  };
  const word = () => {
    allow(0x30, 0x39);
    allow(0x41, 0x5a);
    allow(0x61, 0x7a);
    allow(0x5f);
  };
  for (const item of head[1]!.matchAll(/\\([wd.\-_])|([A-Za-z0-9_.-])(?:-([A-Za-z0-9]))?/g)) {
    if (item[1] === "w") word();
    else if (item[1] === "d") allow(0x30, 0x39);
    else if (item[1]) allow(item[1].charCodeAt(0));
    else allow(item[2]!.charCodeAt(0), (item[3] ?? item[2]!).charCodeAt(0));
  }
  return { prefix: { allowed, max: Number(head[2]) }, rest };
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") {
      inClass = true;
      // A `]` first in a class (or after `^`) is a literal.
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++;
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/** Where the whole pattern's match starts: `at` (where `rest` matched) extended back over the run, not before `from`. */
export function extendBack(content: Buffer, at: number, from: number, prefix: LazyPrefix): number {
  const floor = Math.max(from, at - prefix.max);
  let start = at;
  while (start > floor && prefix.allowed[content[start - 1]!] === 1) start--;
  return start;
}
