// SCIM filters (RFC 7644 §3.4.2.2): `userName eq "a@b.c" and (emails[type eq "work"] pr or not (active eq false))`.
// A hand-written recursive-descent parser: one pass over the text, nesting depth bounded, so any
// filter a client sends costs time linear in its length, and evaluation is linear in the
// resource. Anything it cannot read is a 400 invalidFilter, never a 500. Why not an npm library:
// the maintained ones were measured to backtrack exponentially on some filters (docs/scim.md,
// "Why filters and PATCH are Verdict's own code").
import { scimErrors } from "./scimError.js";

export interface AttrPath {
  /** The schema URN when the path was written in full (`urn:…:User:userName`). */
  schema?: string;
  attr: string;
  sub?: string;
}

export const COMPARE_OPS = ["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type Literal = string | number | boolean | null;

export type Filter =
  | { op: "and" | "or"; left: Filter; right: Filter }
  | { op: "not"; filter: Filter }
  | { op: "pr"; path: AttrPath }
  | { op: CompareOp; path: AttrPath; value: Literal }
  | { op: "valuePath"; path: AttrPath; filter: Filter };

export const MAX_FILTER_LENGTH = 4096;
const MAX_DEPTH = 32;

type Token =
  | { t: "word"; v: string }
  | { t: "string"; v: string }
  | { t: "number"; v: number }
  | { t: "("; v: "(" }
  | { t: ")"; v: ")" }
  | { t: "["; v: "[" }
  | { t: "]"; v: "]" };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === "(" || c === ")" || c === "[" || c === "]") {
      tokens.push({ t: c, v: c } as Token);
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) throw scimErrors.invalidFilter(`Unterminated string at position ${i}`);
      try {
        tokens.push({ t: "string", v: JSON.parse(text.slice(i, j + 1)) as string });
      } catch {
        throw scimErrors.invalidFilter(`Invalid string literal at position ${i}`);
      }
      i = j + 1;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 64));
      if (!m) throw scimErrors.invalidFilter(`Invalid number at position ${i}`);
      tokens.push({ t: "number", v: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_$:.-]/.test(text[j]!)) j++;
      tokens.push({ t: "word", v: text.slice(i, j) });
      i = j;
    } else {
      throw scimErrors.invalidFilter(`Unexpected character '${c}' at position ${i}`);
    }
  }
  return tokens;
}

const ATTR_NAME = /^[A-Za-z$][A-Za-z0-9_$-]*$/;

/** `userName`, `name.givenName`, `urn:…:2.0:User:name.givenName`, `urn:…:enterprise:2.0:User:manager.value`. */
export function parseAttrPath(word: string, onError: (m: string) => Error = scimErrors.invalidFilter): AttrPath {
  let schema: string | undefined;
  let rest = word;
  if (word.toLowerCase().startsWith("urn:")) {
    const cut = word.lastIndexOf(":");
    schema = word.slice(0, cut);
    rest = word.slice(cut + 1);
  }
  const parts = rest.split(".");
  if (parts.length > 2 || !parts.every((p) => ATTR_NAME.test(p))) throw onError(`'${word}' is not an attribute path`);
  return { ...(schema ? { schema } : {}), attr: parts[0]!, ...(parts[1] ? { sub: parts[1] } : {}) };
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Filter {
    if (!this.tokens.length) throw scimErrors.invalidFilter("The filter is empty");
    const f = this.or(0);
    if (this.pos < this.tokens.length)
      throw scimErrors.invalidFilter(`Unexpected '${String(this.tokens[this.pos]!.v)}' after a complete filter`);
    return f;
  }

  /** For a path's bracket (`emails[type eq "work"]`): parses up to the closing bracket. */
  parseUntilBracket(): Filter {
    return this.or(1);
  }

  get position(): number {
    return this.pos;
  }

  private peekWord(): string | undefined {
    const t = this.tokens[this.pos];
    return t?.t === "word" ? t.v.toLowerCase() : undefined;
  }

  private expect(kind: Token["t"]): Token {
    const t = this.tokens[this.pos];
    if (t?.t !== kind)
      throw scimErrors.invalidFilter(
        `Expected '${kind}' but found ${t ? `'${String(t.v)}'` : "the end of the filter"}`,
      );
    this.pos++;
    return t;
  }

  private or(depth: number): Filter {
    let left = this.and(depth);
    while (this.peekWord() === "or") {
      this.pos++;
      left = { op: "or", left, right: this.and(depth) };
    }
    return left;
  }

  private and(depth: number): Filter {
    let left = this.unary(depth);
    while (this.peekWord() === "and") {
      this.pos++;
      left = { op: "and", left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): Filter {
    if (depth > MAX_DEPTH) throw scimErrors.invalidFilter(`Filters nest at most ${MAX_DEPTH} levels deep`);
    const t = this.tokens[this.pos];
    if (!t) throw scimErrors.invalidFilter("The filter ends where an expression should be");
    if (t.t === "word" && t.v.toLowerCase() === "not" && this.tokens[this.pos + 1]?.t === "(") {
      this.pos++;
      return { op: "not", filter: this.group(depth) };
    }
    if (t.t === "(") return this.group(depth);
    if (t.t !== "word") throw scimErrors.invalidFilter(`Expected an attribute path, found '${String(t.v)}'`);
    this.pos++;
    const path = parseAttrPath(t.v);
    if (this.tokens[this.pos]?.t === "[") {
      if (path.sub)
        throw scimErrors.invalidFilter(`'${t.v}[' : a value filter follows the attribute, not a sub-attribute`);
      this.pos++;
      const filter = this.or(depth + 1);
      this.expect("]");
      // `emails[type eq "work"].value eq "x"` is not in the grammar's filter form; refuse clearly.
      return { op: "valuePath", path, filter };
    }
    const opWord = this.peekWord();
    if (opWord === "pr") {
      this.pos++;
      return { op: "pr", path };
    }
    if (!opWord || !(COMPARE_OPS as readonly string[]).includes(opWord))
      throw scimErrors.invalidFilter(
        `Expected an operator (${COMPARE_OPS.join(", ")}, pr) after '${t.v}'${opWord ? `, found '${opWord}'` : ""}`,
      );
    this.pos++;
    return { op: opWord as CompareOp, path, value: this.literal() };
  }

  private group(depth: number): Filter {
    this.expect("(");
    const f = this.or(depth + 1);
    this.expect(")");
    return f;
  }

  private literal(): Literal {
    const t = this.tokens[this.pos];
    if (!t) throw scimErrors.invalidFilter("A comparison needs a value");
    this.pos++;
    if (t.t === "string" || t.t === "number") return t.v;
    if (t.t === "word") {
      const w = t.v.toLowerCase();
      if (w === "true") return true;
      if (w === "false") return false;
      if (w === "null") return null;
    }
    throw scimErrors.invalidFilter(
      `'${String(t.v)}' is not a value: quote strings ("…"), or use true, false, null or a number`,
    );
  }
}

export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH)
    throw scimErrors.invalidFilter(`A filter is at most ${MAX_FILTER_LENGTH} characters`);
  return new Parser(tokenize(text)).parse();
}

/** A PATCH path: `members`, `name.givenName`, `emails[type eq "work"].value`, `members[value eq "u"]`. */
export interface PatchPath extends AttrPath {
  filter?: Filter;
}

export function parsePatchPath(text: string): PatchPath {
  const bad = (m: string) => scimErrors.invalidPath(m);
  if (text.length > MAX_FILTER_LENGTH) throw bad(`A path is at most ${MAX_FILTER_LENGTH} characters`);
  const open = text.indexOf("[");
  if (open < 0) return parseAttrPath(text.trim(), bad);
  const close = text.lastIndexOf("]");
  if (close < open) throw bad(`'${text}': unbalanced brackets`);
  const head = parseAttrPath(text.slice(0, open).trim(), bad);
  if (head.sub) throw bad(`'${text}': a value filter follows the attribute, not a sub-attribute`);
  let filter: Filter;
  try {
    filter = parseFilter(text.slice(open + 1, close));
  } catch (err) {
    throw bad(`'${text}': ${(err as Error).message}`);
  }
  const tail = text.slice(close + 1).trim();
  if (tail && !/^\.[A-Za-z$][A-Za-z0-9_$-]*$/.test(tail)) throw bad(`'${text}': unexpected '${tail}'`);
  return { ...head, filter, ...(tail ? { sub: tail.slice(1) } : {}) };
}

/** Case-insensitive own property lookup (SCIM attribute names are case-insensitive). */
export function getCI(obj: unknown, name: string): unknown {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return undefined;
  const rec = obj as Record<string, unknown>;
  if (Object.hasOwn(rec, name)) return rec[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(rec)) if (k.toLowerCase() === lower) return rec[k];
  return undefined;
}

export interface FilterContext {
  /** The resource's core schema URN (paths may name it in full). */
  coreSchema: string;
  /** Whether comparisons on this attribute are case-sensitive. */
  caseExact(path: AttrPath): boolean;
}

function resolve(resource: unknown, path: AttrPath, ctx: FilterContext): unknown[] {
  const base =
    path.schema && path.schema.toLowerCase() !== ctx.coreSchema.toLowerCase() ? getCI(resource, path.schema) : resource;
  const v = getCI(base, path.attr);
  const items = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
  if (path.sub) return items.map((i) => getCI(i, path.sub!)).filter((x) => x !== undefined && x !== null);
  // A multi-valued complex attribute without a sub-attribute compares its `value`.
  return items
    .map((i) => (i && typeof i === "object" ? getCI(i, "value") : i))
    .filter((x) => x !== undefined && x !== null);
}

function compare(op: CompareOp, actual: unknown, expected: Literal, caseExact: boolean): boolean {
  if (expected === null) return op === "ne";
  if (typeof expected === "boolean") {
    if (op !== "eq" && op !== "ne") throw scimErrors.invalidFilter(`'${op}' does not compare booleans`);
    const a = typeof actual === "string" ? actual.toLowerCase() === "true" : actual;
    return op === "eq" ? a === expected : a !== expected;
  }
  if (typeof expected === "number") {
    const a = typeof actual === "number" ? actual : Number(actual);
    switch (op) {
      case "eq":
        return a === expected;
      case "ne":
        return a !== expected;
      case "gt":
        return a > expected;
      case "ge":
        return a >= expected;
      case "lt":
        return a < expected;
      case "le":
        return a <= expected;
      default:
        throw scimErrors.invalidFilter(`'${op}' does not compare numbers`);
    }
  }
  if (typeof actual !== "string") return op === "ne";
  const a = caseExact ? actual : actual.toLowerCase();
  const e = caseExact ? expected : expected.toLowerCase();
  switch (op) {
    case "eq":
      return a === e;
    case "ne":
      return a !== e;
    case "co":
      return a.includes(e);
    case "sw":
      return a.startsWith(e);
    case "ew":
      return a.endsWith(e);
    case "gt":
      return a > e;
    case "ge":
      return a >= e;
    case "lt":
      return a < e;
    case "le":
      return a <= e;
  }
}

export function matches(resource: unknown, f: Filter, ctx: FilterContext): boolean {
  switch (f.op) {
    case "and":
      return matches(resource, f.left, ctx) && matches(resource, f.right, ctx);
    case "or":
      return matches(resource, f.left, ctx) || matches(resource, f.right, ctx);
    case "not":
      return !matches(resource, f.filter, ctx);
    case "pr":
      return resolve(resource, f.path, ctx).some((v) => v !== "" && !(Array.isArray(v) && !v.length));
    case "valuePath": {
      const base =
        f.path.schema && f.path.schema.toLowerCase() !== ctx.coreSchema.toLowerCase()
          ? getCI(resource, f.path.schema)
          : resource;
      const v = getCI(base, f.path.attr);
      const items = Array.isArray(v) ? v : v ? [v] : [];
      const inner: FilterContext = {
        coreSchema: ctx.coreSchema,
        caseExact: (p) => ctx.caseExact({ attr: f.path.attr, sub: p.attr }),
      };
      return items.some((item) => matches(item, f.filter, inner));
    }
    default: {
      const values = resolve(resource, f.path, ctx);
      const exact = ctx.caseExact(f.path);
      if (f.value === null) return f.op === "eq" ? !values.length : f.op === "ne" ? values.length > 0 : false;
      if (f.op === "ne") return !values.some((v) => compare("eq", v, f.value, exact));
      return values.some((v) => compare(f.op as CompareOp, v, f.value, exact));
    }
  }
}
