// Guards, for data flow (flow.ts): a use of a name that runs only where a check on that name
// decided so is clean when the check says the value is safe. OWASP's Input Validation cheat sheet:
// validate against an allow list of known-good values or an anchored pattern, and only then use
// the input; so `if name in ("a", "b"): eval(name)`, `if !strings.Contains(p, "..") {…}`,
// `if not url_has_allowed_host_and_scheme(u, …): return redirect("/")` then `redirect(u)`, and in
// Ruby `system("echo #{cmd}") if %w[a b].include?(cmd)` carry no input to the sink.
//
// Which tests are checks is the flow's data (FlowSpec's `guards`, matched by flow.ts); this file
// reads the control structure around a use: the branches it sits in (if / elif / else / unless /
// statement modifiers / conditional expressions), the boolean operators of their conditions
// (`not`, `and`, `or`: `x == "a" or x == "b"` holds only for allowed values, `x == "a" or y` does
// not), a name that holds a check's result (`ok := check(p); if ok`), and the early exits before
// the use in its block (`if not ok(x): return …`). A name written between the check and the use is
// not guarded by it. A branching statement between an assignment and the use can also decide the
// name on every way through it (decides(): checked on one way, assigned on the other).
import type { SgNode } from "@ast-grep/napi";

/** How a language writes branches, boolean operators and exits, as tree-sitter kinds and fields. */
export interface GuardSyntax {
  /**
   * Branching kinds: the condition, and the fields entered when it holds or fails (Ruby's
   * `unless` enters its consequence when it fails). A field name, or the index among the named
   * children (Python's conditional expression has no fields).
   */
  branches: Readonly<Record<string, { condition: string | number; holds?: string | number; fails?: string | number }>>;
  /**
   * Clauses after an if (Python's elif and else): entered when the if's condition and those of
   * the clauses before them failed; an elif's own consequence also when its condition holds.
   */
  clauses?: { parent: string; elif: string; else: string };
  not: { kind: string; operand: string; operator?: RegExp };
  binary: { kind: string; left: string; operator: string; right: string; and: RegExp; or: RegExp };
  parenthesized: ReadonlySet<string>;
  /** Blocks whose earlier statements run before a later one (for early exits). */
  blocks: ReadonlySet<string>;
  /** Statements that leave the function or loop. */
  exits: ReadonlySet<string>;
  /** Calls that never return (`abort(404)`, `raise`), by the callee's text. */
  exitCalls: RegExp;
  /** The call kind and its callee field, for exitCalls. */
  call: { kind: string; callee: string };
  /** Kinds that wrap a statement (Python's expression_statement). */
  wrappers?: ReadonlySet<string>;
  /** Branching kinds without an else whose body always exits (`if not ok: return`), with their body fields. */
  earlyExit: Readonly<Record<string, { condition: string; body: string; when: boolean; alternative?: string }>>;
}

export const PYTHON_GUARDS: GuardSyntax = {
  branches: {
    if_statement: { condition: "condition", holds: "consequence" },
    conditional_expression: { condition: 1, holds: 0, fails: 2 },
  },
  clauses: { parent: "if_statement", elif: "elif_clause", else: "else_clause" },
  not: { kind: "not_operator", operand: "argument" },
  binary: { kind: "boolean_operator", left: "left", operator: "operator", right: "right", and: /^and$/, or: /^or$/ },
  parenthesized: new Set(["parenthesized_expression"]),
  blocks: new Set(["block", "module"]),
  exits: new Set(["return_statement", "raise_statement", "continue_statement", "break_statement"]),
  // flask.abort raises an HTTPException; sys.exit raises SystemExit.
  exitCalls: /^(?:(?:flask\.)?abort|sys\.exit|exit)$/,
  call: { kind: "call", callee: "function" },
  wrappers: new Set(["expression_statement"]),
  // The body exits (the early exit); the statement after the if runs only when the condition failed.
  earlyExit: { if_statement: { condition: "condition", body: "consequence", when: false, alternative: "alternative" } },
};

export const RUBY_GUARDS: GuardSyntax = {
  branches: {
    if: { condition: "condition", holds: "consequence", fails: "alternative" },
    elsif: { condition: "condition", holds: "consequence", fails: "alternative" },
    unless: { condition: "condition", holds: "alternative", fails: "consequence" },
    if_modifier: { condition: "condition", holds: "body" },
    unless_modifier: { condition: "condition", fails: "body" },
    conditional: { condition: "condition", holds: "consequence", fails: "alternative" },
  },
  not: { kind: "unary", operand: "operand", operator: /^(?:!|not)$/ },
  binary: {
    kind: "binary",
    left: "left",
    operator: "operator",
    right: "right",
    and: /^(?:&&|and)$/,
    or: /^(?:\|\||or)$/,
  },
  parenthesized: new Set(["parenthesized_statements"]),
  blocks: new Set(["body_statement", "then", "else", "begin", "program", "do", "block_body"]),
  exits: new Set(["return", "next", "break"]),
  exitCalls: /^(?:raise|fail|abort|exit)$/,
  call: { kind: "call", callee: "method" },
  earlyExit: {
    if_modifier: { condition: "condition", body: "body", when: false },
    unless_modifier: { condition: "condition", body: "body", when: true },
    if: { condition: "condition", body: "consequence", when: false, alternative: "alternative" },
    unless: { condition: "condition", body: "consequence", when: true, alternative: "alternative" },
  },
};

export const GO_GUARDS: GuardSyntax = {
  branches: { if_statement: { condition: "condition", holds: "consequence", fails: "alternative" } },
  not: { kind: "unary_expression", operand: "operand", operator: /^!$/ },
  binary: {
    kind: "binary_expression",
    left: "left",
    operator: "operator",
    right: "right",
    and: /^&&$/,
    or: /^\|\|$/,
  },
  parenthesized: new Set(["parenthesized_expression"]),
  blocks: new Set(["block", "statement_list"]),
  exits: new Set(["return_statement", "continue_statement", "break_statement", "goto_statement"]),
  exitCalls: /^(?:panic|os\.Exit|log\.(?:Fatal|Panic)\w*)$/,
  call: { kind: "call_expression", callee: "function" },
  wrappers: new Set(["expression_statement"]),
  earlyExit: { if_statement: { condition: "condition", body: "consequence", when: false, alternative: "alternative" } },
};

const namedChildren = (n: SgNode) => n.children().filter((c) => c.isNamed());
const same = (a: SgNode | null | undefined, b: SgNode) =>
  !!a &&
  a.kind() === b.kind() &&
  a.range().start.index === b.range().start.index &&
  a.range().end.index === b.range().end.index;
const part = (n: SgNode, p: string | number): SgNode | null =>
  typeof p === "number" ? (namedChildren(n)[p] ?? null) : n.field(p);

/** What flow.ts knows of the checks on one name. */
export interface Checks {
  /** Whether `node` is a check that leaves the name safe when it comes out `outcome`. */
  check(node: SgNode, outcome: boolean): boolean;
  /** The value a name in a condition holds (`ok := check(p); if ok`), to read as the condition. */
  resultOf(node: SgNode): SgNode | undefined;
  /** Whether the name is written between two offsets (then a check before no longer speaks for it). */
  writtenBetween(from: number, to: number): boolean;
}

/** Whether the use of a name at `use` (in `scope`) runs only where a check on it decided it is safe. */
export function guarded(syntax: GuardSyntax, use: SgNode, scope: SgNode, checks: Checks): boolean {
  const at = use.range().start.index;
  const holds = (condition: SgNode | null, outcome: boolean) =>
    !!condition && clean(syntax, condition, outcome, checks) && !checks.writtenBetween(condition.range().end.index, at);
  let child = use;
  for (const a of use.ancestors()) {
    const kind = String(a.kind());
    const branch = syntax.branches[kind];
    if (branch) {
      const condition = part(a, branch.condition);
      if (branch.holds !== undefined && same(part(a, branch.holds), child) && holds(condition, true)) return true;
      if (branch.fails !== undefined && same(part(a, branch.fails), child) && holds(condition, false)) return true;
    }
    const clauses = syntax.clauses;
    if (clauses && (kind === clauses.elif || kind === clauses.else) && a.parent()?.kind() === clauses.parent) {
      const parent = a.parent()!;
      if (kind === clauses.elif && same(a.field("consequence"), child) && holds(a.field("condition"), true))
        return true;
      // Entered only when the if's condition and each earlier elif's failed.
      const earlier = [
        parent.field("condition"),
        ...namedChildren(parent)
          .filter((c) => c.kind() === clauses.elif && c.range().end.index <= a.range().start.index)
          .map((c) => c.field("condition")),
      ];
      if (earlier.some((c) => holds(c, false))) return true;
    }
    if (syntax.blocks.has(kind)) {
      for (const s of namedChildren(a)) {
        if (s.range().start.index >= child.range().start.index) break;
        const exit = syntax.earlyExit[String(s.kind())];
        if (!exit || (exit.alternative && s.field(exit.alternative))) continue;
        const body = s.field(exit.body);
        if (body && exits(syntax, body) && holds(s.field(exit.condition), exit.when)) return true;
      }
    }
    if (same(a, scope)) break;
    child = a;
  }
  return false;
}

/**
 * Whether a branching statement decides a name on every way through it: each way either runs only
 * where a check left the name safe, or assigns the name (`overwrites`: an assignment that is a
 * statement of that way's block). After `if dir == "ASC" … else dir = "DESC" end`, or
 * `unless ALLOWED.include?(x) then x = "a" end`, what was assigned to the name before is gone or
 * was checked. A way with no block (an if without else) passes the name on unless checked.
 */
export function decides(
  syntax: GuardSyntax,
  statement: SgNode,
  checks: Checks,
  overwrites: (block: SgNode) => boolean,
  depth = 0,
): boolean {
  const branch = syntax.branches[String(statement.kind())];
  const condition = branch ? part(statement, branch.condition) : null;
  if (!branch || !condition || depth > 8) return false;
  const way = (field: string | number | undefined, outcome: boolean) => {
    if (clean(syntax, condition, outcome, checks)) return true;
    const body = field === undefined ? null : part(statement, field);
    return !!body && (overwrites(body) || decides(syntax, body, checks, overwrites, depth + 1));
  };
  return way(branch.holds, true) && way(branch.fails, false);
}

/** Whether a statement (or a block, by its last statement) always leaves: return, raise, abort(…). */
function exits(syntax: GuardSyntax, node: SgNode): boolean {
  let n: SgNode | undefined = node;
  while (n && (syntax.blocks.has(String(n.kind())) || syntax.wrappers?.has(String(n.kind()))))
    n = namedChildren(n)
      .filter((c) => c.kind() !== "comment")
      .at(-1);
  if (!n) return false;
  if (syntax.exits.has(String(n.kind()))) return true;
  const kind = String(n.kind());
  // Ruby: `head :forbidden and return`.
  if (kind === syntax.binary.kind && syntax.binary.and.test(n.field(syntax.binary.operator)?.text() ?? ""))
    return exits(syntax, n.field(syntax.binary.right) ?? n.field(syntax.binary.left)!);
  if (kind === syntax.call.kind) return syntax.exitCalls.test(n.field(syntax.call.callee)?.text() ?? "");
  // A bare `raise` / `abort` in Ruby is an identifier.
  return syntax.exitCalls.test(n.text()) && namedChildren(n).length === 0;
}

/** Whether the name is safe when `condition` evaluates to `outcome`. */
function clean(syntax: GuardSyntax, condition: SgNode, outcome: boolean, checks: Checks, depth = 0): boolean {
  if (depth > 8) return false;
  const again = (n: SgNode | null | undefined, o: boolean) => !!n && clean(syntax, n, o, checks, depth + 1);
  const kind = String(condition.kind());
  if (checks.check(condition, outcome)) return true;
  // `ok := check(p)` then `if ok`: the check the name holds the result of.
  if (again(checks.resultOf(condition), outcome)) return true;
  if (syntax.parenthesized.has(kind)) {
    const inner = namedChildren(condition);
    return inner.length === 1 && again(inner[0]!, outcome);
  }
  if (kind === syntax.not.kind && (!syntax.not.operator || syntax.not.operator.test(condition.child(0)?.text() ?? "")))
    return again(condition.field(syntax.not.operand), !outcome);
  if (kind === syntax.binary.kind) {
    const op = condition.field(syntax.binary.operator)?.text() ?? "";
    const l = condition.field(syntax.binary.left);
    const r = condition.field(syntax.binary.right);
    // `a and b` held: both did; failed: one did (clean only if either failing cleans it). `or` the other way.
    if (syntax.binary.and.test(op))
      return outcome ? again(l, true) || again(r, true) : again(l, false) && again(r, false);
    if (syntax.binary.or.test(op))
      return outcome ? again(l, true) && again(r, true) : again(l, false) || again(r, false);
  }
  return false;
}
