// Constant conditions, for data flow (flow.ts): a branch whose condition is a constant the code
// itself fixes never runs, so what it assigns reaches nothing. `int num = 86; if ((7 * 42) - num >
// 200) bar = "safe"; else bar = param;` always takes the first branch; `char t = "ABC".charAt(1);
// switch (t) { case 'A': bar = param; … case 'B': bar = "bob"; … }` always takes case 'B'.
//
// Values: integer literals, character and string literals (without escapes), + - * / % and the
// comparisons between them, `s.charAt(i)` of a constant string, parentheses, and a local name
// assigned exactly once in the function, with a constant. Anything else is not constant, and
// then every branch counts, as before.
import type { NapiConfig, SgNode } from "@ast-grep/napi";

/** How a language writes the constructs folded here, as tree-sitter kinds and fields. */
export interface ConstantSyntax {
  integer: ReadonlySet<string>;
  character: string;
  string: { kind: string; fragment: string };
  parenthesized: string;
  binary: { kind: string; left: string; operator: string; right: string };
  /** `s.charAt(i)`: the call kind, its receiver, name and arguments fields. */
  call: { kind: string; receiver: string; name: string; arguments: string };
  /** Assignments that bind a local name (to find the one that binds it). */
  assignments: Readonly<Record<string, { target: string; value: string }>>;
  ifStatement: { kind: string; condition: string; consequence: string; alternative: string };
  ternary: { kind: string; condition: string; consequence: string; alternative: string };
  switch: { kinds: ReadonlySet<string>; condition: string; body: string; group: string; label: string };
  /** Statements that leave a switch group (no fall-through into the next). */
  exits: ReadonlySet<string>;
}

export const JAVA_CONSTANTS: ConstantSyntax = {
  integer: new Set(["decimal_integer_literal"]),
  character: "character_literal",
  string: { kind: "string_literal", fragment: "string_fragment" },
  parenthesized: "parenthesized_expression",
  binary: { kind: "binary_expression", left: "left", operator: "operator", right: "right" },
  call: { kind: "method_invocation", receiver: "object", name: "name", arguments: "arguments" },
  assignments: {
    variable_declarator: { target: "name", value: "value" },
    assignment_expression: { target: "left", value: "right" },
  },
  ifStatement: { kind: "if_statement", condition: "condition", consequence: "consequence", alternative: "alternative" },
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
    const parts = namedChildren(node);
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
  if (kind === syntax.call.kind && node.field(syntax.call.name)?.text() === "charAt") {
    const s = again(node.field(syntax.call.receiver));
    const args = namedChildren(node.field(syntax.call.arguments) ?? node);
    const i = args.length === 1 ? again(args[0]) : undefined;
    return typeof s === "string" && typeof i === "number" && i >= 0 && i < s.length ? s[i] : undefined;
  }
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
  const c = node.field(syntax.ternary.condition);
  const value = c ? constantValue(syntax, c, scope, identifier) : undefined;
  if (typeof value !== "boolean") return undefined;
  return node.field(value ? syntax.ternary.consequence : syntax.ternary.alternative) ?? undefined;
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
      const alternative = a.field(syntax.ifStatement.alternative);
      if (consequence && within(node, consequence) && !value) return true;
      if (alternative && within(node, alternative) && value) return true;
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
  const labels = (g: SgNode) => g.children().filter((l) => l.kind() === syntax.switch.label);
  const matches = (g: SgNode) =>
    labels(g).some((l) => {
      const v = namedChildren(l)[0];
      return v !== undefined && constantValue(syntax, v, scope, identifier) === selector;
    });
  const isDefault = (g: SgNode) => labels(g).some((l) => namedChildren(l).length === 0);
  let from = groups.findIndex(matches);
  if (from < 0) {
    // Every label must be a constant to know that none matches.
    const allConstant = groups.every((g) =>
      labels(g).every((l) => {
        const v = namedChildren(l)[0];
        return v === undefined || constantValue(syntax, v, scope, identifier) !== undefined;
      }),
    );
    if (!allConstant) return undefined;
    from = groups.findIndex(isDefault);
    if (from < 0) return [];
  }
  const live: SgNode[] = [];
  for (let i = from; i < groups.length; i++) {
    live.push(groups[i]!);
    if (groups[i]!.children().some((s) => syntax.exits.has(String(s.kind())))) break;
  }
  return live;
}
