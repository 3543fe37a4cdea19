// Constant conditions, for data flow (flow.ts): a branch whose condition is a constant the code
// itself fixes never runs, so what it assigns reaches nothing. `int num = 86; if ((7 * 42) - num >
// 200) bar = "safe"; else bar = param;` always takes the first branch; `char t = "ABC".charAt(1);
// switch (t) { case 'A': bar = param; … case 'B': bar = "bob"; … }` always takes case 'B'.
//
// Python the same way: `num = 86` then `if 7 * 42 - num > 200:` or `bar = "safe" if 7 * 18 + num >
// 200 else param` (a conditional expression), `"ABC"[0]`.
//
// Values: integer literals, character and string literals (without escapes or interpolations),
// + - * / % and the comparisons between them, `s.charAt(i)` and `s[i]` of a constant string,
// parentheses, and a local name assigned exactly once in the function, with a constant. Anything
// else is not constant, and then every branch counts, as before.
import type { NapiConfig, SgNode } from "@ast-grep/napi";

/**
 * How a language writes a method call: the call kind and its fields; with `function`, the
 * receiver and name are fields of the node in that field (Python: `call.function` is an
 * `attribute` with `object` and `attribute`).
 */
export interface CallSyntax {
  kind: string;
  function?: string;
  receiver: string;
  name: string;
  arguments: string;
}

/** A method call's receiver, name and named arguments; undefined when `node` is not such a call. */
export function callParts(
  call: CallSyntax,
  node: SgNode,
): { receiver: SgNode | null; name: string; args: SgNode[] } | undefined {
  if (node.kind() !== call.kind) return undefined;
  const callee = call.function ? node.field(call.function) : node;
  if (!callee) return undefined;
  return {
    receiver: callee.field(call.receiver),
    name: callee.field(call.name)?.text() ?? "",
    args: namedChildren(node.field(call.arguments) ?? node).filter((a) => !same(a, node)),
  };
}

/** A child of a node: a field, or (a number) the index among its named children (Python's conditional expression has no fields). */
type Part = string | number;
const part = (node: SgNode, p: Part): SgNode | null =>
  typeof p === "number" ? (namedChildren(node)[p] ?? null) : node.field(p);

/** How a language writes the constructs folded here, as tree-sitter kinds and fields. */
export interface ConstantSyntax {
  integer: ReadonlySet<string>;
  character?: string;
  /** A string literal: its kind, the kind of its literal text, and delimiter kinds to skip (Python's `string_start`). */
  string: { kind: string; fragment: string; delimiters?: ReadonlySet<string> };
  parenthesized: string;
  binary: { kind: string; left: string; operator: string; right: string };
  /** Python's comparisons are their own kind: two operands and the `operators` field. */
  comparison?: { kind: string; operators: string };
  /** `s.charAt(i)` (and, for collections.ts, `map.get(k)`, `list.add(v)`). */
  call: CallSyntax;
  /** `s[i]`: the subscript kind, its value and index fields. */
  subscript?: { kind: string; value: string; index: string };
  /** A fresh, empty collection (`new HashMap<>()`, `{}`, `[]`), for collections.ts. */
  emptyCollection: (node: SgNode) => boolean;
  /** Assignments that bind a local name (to find the one that binds it). */
  assignments: Readonly<Record<string, { target: string; value: string }>>;
  ifStatement: { kind: string; condition: string; consequence: string };
  ternary: { kind: string; condition: Part; consequence: Part; alternative: Part };
  /**
   * A switch (Python: `match`): its kinds and fields, the kind of a case and of its label; a
   * label's `union` (`case "C" | "D"`) matches any of its values; a case with a `guard` child
   * (`case "A" if x`) may not run.
   */
  switch: {
    kinds: ReadonlySet<string>;
    condition: string;
    body: string;
    group: string;
    label: string;
    union?: string;
    guard?: string;
  };
  /** Statements that leave a switch group (no fall-through into the next); none: groups never fall through (Python). */
  exits?: ReadonlySet<string>;
}

export const JAVA_CONSTANTS: ConstantSyntax = {
  integer: new Set(["decimal_integer_literal"]),
  character: "character_literal",
  string: { kind: "string_literal", fragment: "string_fragment" },
  parenthesized: "parenthesized_expression",
  binary: { kind: "binary_expression", left: "left", operator: "operator", right: "right" },
  call: { kind: "method_invocation", receiver: "object", name: "name", arguments: "arguments" },
  // `new HashMap<>()`: no arguments to copy from.
  emptyCollection: (node) => {
    const args = node.field("arguments");
    return node.kind() === "object_creation_expression" && (!args || namedChildren(args).length === 0);
  },
  assignments: {
    variable_declarator: { target: "name", value: "value" },
    assignment_expression: { target: "left", value: "right" },
  },
  ifStatement: { kind: "if_statement", condition: "condition", consequence: "consequence" },
  ternary: {
    kind: "ternary_expression",
    condition: "condition",
    consequence: "consequence",
    alternative: "alternative",
  },
  switch: {
    kinds: new Set(["switch_expression", "switch_statement"]),
    condition: "condition",
    body: "body",
    group: "switch_block_statement_group",
    label: "switch_label",
  },
  exits: new Set(["break_statement", "return_statement", "throw_statement", "continue_statement"]),
};

export const PYTHON_CONSTANTS: ConstantSyntax = {
  integer: new Set(["integer"]),
  string: { kind: "string", fragment: "string_content", delimiters: new Set(["string_start", "string_end"]) },
  parenthesized: "parenthesized_expression",
  binary: { kind: "binary_operator", left: "left", operator: "operator", right: "right" },
  comparison: { kind: "comparison_operator", operators: "operators" },
  call: { kind: "call", function: "function", receiver: "object", name: "attribute", arguments: "arguments" },
  subscript: { kind: "subscript", value: "value", index: "subscript" },
  // `{}`, `[]`, `dict()`, `list()`, `configparser.ConfigParser()`: nothing in them yet.
  emptyCollection: (node) =>
    ((node.kind() === "dictionary" || node.kind() === "list") && namedChildren(node).length === 0) ||
    (node.kind() === "call" &&
      /^(?:dict|list|(?:configparser\.)?(?:Raw|Safe)?ConfigParser)$/.test(node.field("function")?.text() ?? "") &&
      namedChildren(node.field("arguments") ?? node).length === 0),
  assignments: { assignment: { target: "left", value: "right" } },
  ifStatement: { kind: "if_statement", condition: "condition", consequence: "consequence" },
  // `a if condition else b`: no fields, three operands in that order.
  ternary: { kind: "conditional_expression", consequence: 0, condition: 1, alternative: 2 },
  switch: {
    kinds: new Set(["match_statement"]),
    condition: "subject",
    body: "body",
    group: "case_clause",
    label: "case_pattern",
    union: "union_pattern",
    guard: "if_clause",
  },
};

type Value = number | string | boolean;
const MAX_DEPTH = 6;

const same = (a: SgNode | null | undefined, b: SgNode) =>
  !!a &&
  a.kind() === b.kind() &&
  a.range().start.index === b.range().start.index &&
  a.range().end.index === b.range().end.index;
const within = (node: SgNode, outer: SgNode) =>
  node.range().start.index >= outer.range().start.index && node.range().end.index <= outer.range().end.index;
const namedChildren = (node: SgNode) => node.children().filter((c) => c.isNamed());

/** The value of a constant expression in `scope`, or undefined. */
export function constantValue(
  syntax: ConstantSyntax,
  node: SgNode,
  scope: SgNode,
  identifier: string,
  depth = 0,
): Value | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const kind = String(node.kind());
  const again = (n: SgNode | null | undefined) =>
    n ? constantValue(syntax, n, scope, identifier, depth + 1) : undefined;
  if (syntax.integer.has(kind)) {
    const n = Number(node.text().replace(/[_lL]/g, ""));
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (kind === syntax.character) {
    const t = node.text();
    return t.length === 3 ? t[1] : undefined;
  }
  if (kind === syntax.string.kind) {
    const parts = namedChildren(node).filter((p) => !syntax.string.delimiters?.has(String(p.kind())));
    return parts.every((p) => p.kind() === syntax.string.fragment) ? parts.map((p) => p.text()).join("") : undefined;
  }
  if (kind === syntax.parenthesized) {
    const inner = namedChildren(node);
    return inner.length === 1 ? again(inner[0]) : undefined;
  }
  if (kind === syntax.binary.kind) {
    const l = again(node.field(syntax.binary.left));
    const r = again(node.field(syntax.binary.right));
    if (l === undefined || r === undefined) return undefined;
    return binary(node.field(syntax.binary.operator)?.text() ?? "", l, r);
  }
  if (syntax.comparison && kind === syntax.comparison.kind) {
    const operands = namedChildren(node);
    const operators = node.children().filter((c) => !c.isNamed());
    if (operands.length !== 2 || operators.length !== 1) return undefined;
    const l = again(operands[0]);
    const r = again(operands[1]);
    return l === undefined || r === undefined ? undefined : binary(operators[0]!.text(), l, r);
  }
  const call = callParts(syntax.call, node);
  if (call?.name === "charAt" && call.args.length === 1) return charAt(again(call.receiver), again(call.args[0]));
  if (syntax.subscript && kind === syntax.subscript.kind)
    return charAt(again(node.field(syntax.subscript.value)), again(node.field(syntax.subscript.index)));
  if (kind === identifier) {
    // A local bound exactly once, to a constant (a parameter or a field is not bound here).
    const values: SgNode[] = [];
    for (const [k, f] of Object.entries(syntax.assignments))
      for (const a of scope.findAll({ rule: { kind: k } } as NapiConfig)) {
        const target = a.field(f.target);
        if (target?.kind() === identifier && target.text() === node.text()) {
          const value = a.field(f.value);
          if (!value) return undefined;
          values.push(value);
        }
      }
    return values.length === 1 ? again(values[0]) : undefined;
  }
  return undefined;
}

const charAt = (s: Value | undefined, i: Value | undefined): Value | undefined =>
  typeof s === "string" && typeof i === "number" && i >= 0 && i < s.length ? s[i] : undefined;

function binary(op: string, l: Value, r: Value): Value | undefined {
  if (typeof l === "number" && typeof r === "number") {
    switch (op) {
      case "+":
        return l + r;
      case "-":
        return l - r;
      case "*":
        return l * r;
      case "/":
        return r === 0 ? undefined : Math.trunc(l / r);
      case "%":
        return r === 0 ? undefined : l % r;
      case ">":
        return l > r;
      case "<":
        return l < r;
      case ">=":
        return l >= r;
      case "<=":
        return l <= r;
    }
  }
  if (op === "==") return l === r;
  if (op === "!=") return l !== r;
  return undefined;
}

/** For a conditional expression with a constant condition, the branch it always takes. */
export function takenBranch(
  syntax: ConstantSyntax,
  node: SgNode,
  scope: SgNode,
  identifier: string,
): SgNode | undefined {
  if (node.kind() !== syntax.ternary.kind) return undefined;
  const c = part(node, syntax.ternary.condition);
  const value = c ? constantValue(syntax, c, scope, identifier) : undefined;
  if (typeof value !== "boolean") return undefined;
  return part(node, value ? syntax.ternary.consequence : syntax.ternary.alternative) ?? undefined;
}

/** Whether `node` sits in a branch (of an if or a switch inside `scope`) that a constant condition never takes. */
export function deadIn(syntax: ConstantSyntax, node: SgNode, scope: SgNode, identifier: string): boolean {
  for (const a of node.ancestors()) {
    if (same(a, scope)) return false;
    const kind = String(a.kind());
    if (kind === syntax.ifStatement.kind) {
      const c = a.field(syntax.ifStatement.condition);
      const value = c ? constantValue(syntax, c, scope, identifier) : undefined;
      if (typeof value !== "boolean") continue;
      const consequence = a.field(syntax.ifStatement.consequence);
      if (!consequence) continue;
      if (within(node, consequence) && !value) return true;
      // Every alternative (else, and Python's elif clauses) follows the consequence.
      if (node.range().start.index >= consequence.range().end.index && value) return true;
    } else if (syntax.switch.kinds.has(kind)) {
      const live = liveGroups(syntax, a, scope, identifier);
      if (live && !live.some((g) => within(node, g)) && !within(node, a.field(syntax.switch.condition) ?? node))
        return true;
    }
  }
  return false;
}

/** The groups of a switch on a constant that run: the matching case (or default) and those it falls into. */
function liveGroups(syntax: ConstantSyntax, node: SgNode, scope: SgNode, identifier: string): SgNode[] | undefined {
  const c = node.field(syntax.switch.condition);
  const selector = c ? constantValue(syntax, c, scope, identifier) : undefined;
  if (selector === undefined) return undefined;
  const groups = namedChildren(node.field(syntax.switch.body) ?? node).filter((g) => g.kind() === syntax.switch.group);
  if (syntax.switch.guard && groups.some((g) => g.children().some((c) => c.kind() === syntax.switch.guard)))
    return undefined;
  const labels = (g: SgNode) => g.children().filter((l) => l.kind() === syntax.switch.label);
  // The values a label names (`case 'C' | 'D'`: both); [] for the default (`default:`, `case _:`).
  const values = (l: SgNode) => {
    const v = namedChildren(l)[0];
    return v === undefined ? [] : v.kind() === syntax.switch.union ? namedChildren(v) : [v];
  };
  const matches = (g: SgNode) =>
    labels(g).some((l) => values(l).some((v) => constantValue(syntax, v, scope, identifier) === selector));
  const isDefault = (g: SgNode) => labels(g).some((l) => values(l).length === 0);
  let from = groups.findIndex(matches);
  // A label before it that is not a constant (Python's `case str():`) might take the value first.
  if (
    groups
      .slice(0, Math.max(from, 0))
      .some((g) =>
        labels(g).some((l) => values(l).some((v) => constantValue(syntax, v, scope, identifier) === undefined)),
      )
  )
    return undefined;
  if (from < 0) {
    // Every label must be a constant to know that none matches.
    const allConstant = groups.every((g) =>
      labels(g).every((l) => values(l).every((v) => constantValue(syntax, v, scope, identifier) !== undefined)),
    );
    if (!allConstant) return undefined;
    from = groups.findIndex(isDefault);
    if (from < 0) return [];
  }
  const live: SgNode[] = [];
  for (let i = from; i < groups.length; i++) {
    live.push(groups[i]!);
    if (!syntax.exits || groups[i]!.children().some((s) => syntax.exits!.has(String(s.kind())))) break;
  }
  return live;
}
