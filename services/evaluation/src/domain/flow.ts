// Intra-procedural data flow for structural rules: does a value read from a declared source (a
// request parameter) reach the sink's argument within the same function, through assignments,
// concatenation, formatting and calls, without passing through a sanitizer? Enough to tell
// `cursor.execute(q % request.args["id"])` from `cursor.execute(CONSTANT_QUERY % ())`.
//
// The walk reads the syntax tree ast-grep parsed: from the sink's argument down through the
// expression; a name is followed to its assignments in the enclosing function that come before
// the sink (any of them tainted taints the name, so a branch that assigns input counts), except
// an assignment that a later one in an enclosing block always overwrites. In Java also: calls on
// a name with input as an argument taint it (`list.add(x)`, `sb.append(x)`; not a capitalized
// name's: a type's static call, `Paths.get(x)`, or a constant's), a call that fills
// an array from its receiver taints the array (`random.nextBytes(buf)`, `in.read(buf)`), a fresh
// map or list filled with constant keys or indexes gives back what was put there (collections.ts), calls to
// the file's own methods are followed into their returns, and branches that a constant condition
// never takes assign nothing (constant.ts). In Python also: calls on a name with input as an
// argument taint it (`argList.append(f"echo {x}")`), a subscript assignment taints the collection
// (`m["k"] = x`), fresh dicts, lists and configparsers filled with constant keys give back what
// was put there, and constant branches (if/elif/else, `a if c else b`) are folded. In Go also: `a, b := x, y`
// assigns element by element, and `data, err := f(p)` gives every name the call's results. Guards
// (GuardSpec, guards.ts; Go, Python and Ruby): a check such as `strings.Contains(p, "..")` or
// `x in ("a", "b")` clears the name it checks where it decided the way to the sink (the branch it
// took, or after an `if` that exits when it failed). A call can be clean by its receiver
// (SafeReceiverSpec: `md.render(x)` of a markdown renderer every assignment makes escaping). Each
// check is bounded (MAX_NODES nodes, names
// followed at most MAX_DEPTH deep), so a large function costs a bounded amount per sink.
import type { NapiConfig, SgNode } from "@ast-grep/napi";
import { elementOf, type CallSite } from "./collections.js";
import { decides, GO_GUARDS, guarded, PYTHON_GUARDS, RUBY_GUARDS, type Checks, type GuardSyntax } from "./guards.js";
import {
  callParts,
  deadIn,
  JAVA_CONSTANTS,
  PYTHON_CONSTANTS,
  takenBranch,
  type CallSyntax,
  type ConstantSyntax,
} from "./constant.js";
import type { StructuralLanguage } from "./structuralLanguages.js";

/** A flow condition: the metavariable of the sink's argument, and what taints and cleans it. */
export interface FlowSpec {
  /** The sink's metavariable (without `$`) whose value must carry data from a source; `$$$ARGS`: any of a multiple match. */
  sink: string;
  /** ast-grep rules: expressions that are untrusted input (`request.args`, `req.query`). */
  sources: Record<string, unknown>[];
  /** ast-grep rules: expressions whose value is clean whatever goes in (`int(x)`, `shlex.quote(x)`). */
  sanitizers?: Record<string, unknown>[];
  /** Types (as written: `String`) whose parameters of the function around the sink count as sources. */
  parameters?: string[];
  /**
   * Names the function does not assign before the sink count as sources: in Ruby a method's or a
   * block's parameters and methods called without parentheses, whose values come from elsewhere.
   * For sinks where anything not built from constants is the finding (SQL text interpolated): a
   * name assigned only constants, or one a guard checked, is then still clean.
   */
  freeNames?: boolean;
  /** Checks that make a name safe where they decide the branch the sink is in (see GuardSpec). */
  guards?: GuardSpec[];
  /** Calls whose result is clean because of what their receiver is (see SafeReceiverSpec). */
  safeReceivers?: SafeReceiverSpec[];
}

/**
 * A call made safe by its receiver: `md.render(x)` where every assignment to `md` in the file
 * makes a renderer that escapes (markdown-it created without `html: true`).
 */
export interface SafeReceiverSpec {
  /** An ast-grep rule matching the call, binding its receiver (a name) to `receiver`. */
  rule: Record<string, unknown>;
  /** The metavariable (without `$`) of the receiver. */
  receiver: string;
  /** Rules every value the file assigns to the receiver's name must match. */
  made: Record<string, unknown>[];
}

/**
 * A check of a value that makes it safe where it decided the way to the sink: the sink sits in
 * the branch of an `if` taken when the check came out `safe` (`if !strings.Contains(p, "..") {…}`),
 * or after an `if` that exits when it did not (`if strings.Contains(p, "..") { return }`). The
 * condition may negate it, combine it with `&&` (`||` when it failed), or be a name the check's
 * result was assigned to (`matched, _ := regexp.MatchString(…, p); if !matched {…}`).
 */
export interface GuardSpec {
  /** An ast-grep rule matching the check (a call), binding the checked value to `value`. */
  rule: Record<string, unknown>;
  constraints?: Record<string, Record<string, unknown>>;
  /** The metavariable (without `$`) of the checked value: a name, the one the sink reads. */
  value: string;
  /** The check's result for which the value is safe. */
  safe: boolean;
  /** When given, the name checked must hold only values these rules match (a path normalized before its prefix is checked). */
  normalized?: Record<string, unknown>[];
}

/** How a language writes functions, assignments and names, as tree-sitter kinds and fields. */
interface Syntax {
  functions: ReadonlySet<string>;
  /** Assignment kinds: the field of the target and of the value. */
  assignments: Readonly<Record<string, { target: string; value: string }>>;
  identifier: string;
  /** Fields of a kind that are names, not values (`a.b` reads `a`, not `b`; a call's method name). */
  names: Readonly<Record<string, readonly string[]>>;
  /**
   * Method calls `receiver.name(arguments)`: a call on a name with an argument carrying input
   * taints the name (`list.add(x)`, `sb.append(x)`, `map.put(k, x)`), and a call to a method the
   * file declares is followed into it (what its returns carry, its parameters bound to the
   * call's arguments).
   */
  call?: CallSyntax;
  /** Only a name the function assigns is tainted by calls on it (Python: `base64.b64decode(x)` is a module's function, not a list filled). */
  callsTaintLocalsOnly?: boolean;
  /**
   * Methods that write what their receiver gives into the names passed to them
   * (`random.nextBytes(buf)`, `in.read(buf)`): the call taints those names with its receiver.
   */
  fills?: ReadonlySet<string>;
  /**
   * Receivers that name a type or a constant (Java: `Paths`, `URI`, `BASE`; capitalized by
   * convention): a call on one is static, or on a shared constant, and taints nothing.
   */
  typeName?: RegExp;
  method?: { kinds: ReadonlySet<string>; name: string; parameters: string; returns: string };
  /** Constant conditions (constant.ts): branches a constant condition never takes assign nothing. */
  constants?: ConstantSyntax;
  /** Statements of a block (kind -> the block kinds they sit in): a later one overwrites an earlier assignment. */
  statements?: ReadonlySet<string>;
  blocks?: ReadonlySet<string>;
  /** The kind of a list of targets and of values (Go: `a, b := x, y`, `data, err := os.ReadFile(p)`). */
  list?: string;
  /** Branches, boolean operators and exits, whose conditions guards are read in (GuardSpec, guards.ts). */
  guards?: GuardSyntax;
  /** Names that, given one of a call's several results, get its error (Go's `err`): they carry no input. */
  errors?: RegExp;
}

const JS: Syntax = {
  functions: new Set([
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "function",
  ]),
  assignments: {
    variable_declarator: { target: "name", value: "value" },
    assignment_expression: { target: "left", value: "right" },
    augmented_assignment_expression: { target: "left", value: "right" },
  },
  identifier: "identifier",
  names: { member_expression: ["property"] },
};

const GO: Syntax = {
  functions: new Set(["function_declaration", "method_declaration", "func_literal"]),
  assignments: {
    short_var_declaration: { target: "left", value: "right" },
    assignment_statement: { target: "left", value: "right" },
    var_spec: { target: "name", value: "value" },
    // for _, name := range r.URL.Query()["f"]: each element of the value.
    range_clause: { target: "left", value: "right" },
  },
  identifier: "identifier",
  names: {},
  call: { kind: "call_expression", function: "function", receiver: "operand", name: "field", arguments: "arguments" },
  callsTaintLocalsOnly: true,
  statements: new Set(["short_var_declaration", "assignment_statement", "var_declaration"]),
  blocks: new Set(["statement_list"]),
  list: "expression_list",
  guards: GO_GUARDS,
  errors: /^err(?:\d*|[A-Z]\w*)$/,
  // part.Read(buf), f.ReadAt(buf, off): the buffer carries what the reader gives.
  fills: new Set(["Read", "ReadAt"]),
};

const SYNTAX: Partial<Record<StructuralLanguage, Syntax>> = {
  python: {
    functions: new Set(["function_definition", "lambda"]),
    assignments: {
      assignment: { target: "left", value: "right" },
      augmented_assignment: { target: "left", value: "right" },
      // for name in request.form.keys(): each element of the value.
      for_statement: { target: "left", value: "right" },
    },
    identifier: "identifier",
    names: { attribute: ["attribute"], keyword_argument: ["name"] },
    call: PYTHON_CONSTANTS.call,
    callsTaintLocalsOnly: true,
    constants: PYTHON_CONSTANTS,
    guards: PYTHON_GUARDS,
    statements: new Set(["expression_statement"]),
    blocks: new Set(["block", "module"]),
  },
  javascript: JS,
  typescript: JS,
  tsx: JS,
  java: {
    functions: new Set(["method_declaration", "constructor_declaration", "lambda_expression"]),
    assignments: {
      variable_declarator: { target: "name", value: "value" },
      assignment_expression: { target: "left", value: "right" },
      // for (Cookie c : request.getCookies()): each element of the value.
      enhanced_for_statement: { target: "name", value: "value" },
    },
    identifier: "identifier",
    names: {
      method_invocation: ["name"],
      field_access: ["field"],
      object_creation_expression: ["type"],
      cast_expression: ["type"],
    },
    call: { kind: "method_invocation", receiver: "object", name: "name", arguments: "arguments" },
    fills: new Set(["nextBytes", "read", "readFully"]),
    typeName: /^[A-Z]/,
    method: {
      kinds: new Set(["method_declaration"]),
      name: "name",
      parameters: "parameters",
      returns: "return_statement",
    },
    constants: JAVA_CONSTANTS,
    statements: new Set(["expression_statement", "local_variable_declaration"]),
    blocks: new Set(["block"]),
  },
  // PHP: `$name` is a variable_name; a call's function and a member's name are `name` nodes, not values.
  php: {
    functions: new Set(["function_definition", "method_declaration", "anonymous_function", "arrow_function"]),
    assignments: {
      assignment_expression: { target: "left", value: "right" },
      augmented_assignment_expression: { target: "left", value: "right" },
    },
    identifier: "variable_name",
    names: {},
  },
  // Ruby: a bare name is an identifier (a local or a method call: `params`); a call's method name is not a value.
  ruby: {
    functions: new Set(["method", "singleton_method"]),
    assignments: {
      assignment: { target: "left", value: "right" },
      operator_assignment: { target: "left", value: "right" },
    },
    identifier: "identifier",
    names: { call: ["method"] },
    guards: RUBY_GUARDS,
    // An assignment is a statement of its body (`then`, `else`, a method's body_statement, …).
    statements: new Set(["assignment"]),
    blocks: RUBY_GUARDS.blocks,
  },
  go: GO,
};

/** The languages flow conditions can be written for. */
export const FLOW_LANGUAGES = Object.keys(SYNTAX) as StructuralLanguage[];

const MAX_NODES = 2000;
const MAX_DEPTH = 8;

/** A flow condition ready to check: its rules as ast-grep configurations. */
export interface CompiledFlow {
  sink: string;
  sources: Matcher[];
  sanitizers: Matcher[];
  parameters: string[];
  freeNames: boolean;
  guards: CompiledGuard[];
  safeReceivers: { calls: Matcher[]; receiver: string; made: NapiConfig }[];
}

interface CompiledGuard {
  config: NapiConfig;
  value: string;
  safe: boolean;
  normalized?: NapiConfig;
}

/** A rule and, when it names one, the only kind of node it can match (checked first: matches() costs far more). */
export interface Matcher {
  kind?: string;
  config: NapiConfig;
}

const matcher = (rule: Record<string, unknown>): Matcher => ({
  ...(typeof rule.kind === "string" ? { kind: rule.kind } : {}),
  config: { rule } as NapiConfig,
});
const nodeKey = (n: SgNode) => {
  const { start, end } = n.range();
  return `${start.index}:${end.index}:${String(n.kind())}`;
};

/**
 * Whether a node of a scope (a function, or the module) matches one of the rules: every node of
 * the scope that does is found once, in one native traversal for the list (asking each node with
 * matches() compiles the list's rules per node). By scope, not file: a walk only visits nodes of
 * the scopes it follows names in, and a long module's every node is many times a function's
 * (ast-grep's relational rules, `inside`, still see the ancestors outside the scope).
 */
function matcherOf(matchers: Matcher[], memo: FlowMemo): (node: SgNode, kind: string, scope: SgNode) => boolean {
  const kinds = new Set(matchers.map((m) => m.kind));
  const list = listKey(matchers);
  return (node, kind, scope) => {
    if (!kinds.has(kind) && !kinds.has(undefined)) return false;
    const key = `${list}@${nodeKey(scope)}`;
    let keys = memo.matched.get(key);
    if (!keys) memo.matched.set(key, (keys = new Set(scope.findAll(anyOf(matchers)).map(nodeKey))));
    return keys.has(nodeKey(node));
  };
}

/** The matchers as one rule: one native traversal of the file for the whole list, not one per rule. */
function anyOf(matchers: readonly Matcher[]): NapiConfig {
  return matchers.length === 1
    ? matchers[0]!.config
    : ({ rule: { any: matchers.map((m) => m.config.rule) } } as NapiConfig);
}

/**
 * A list of matchers by its rules' text: the rules of a language share their lists of sources and
 * sanitizers (each its own copy once compiled), so a file's nodes of a list are found once for all.
 */
const listKeys = new WeakMap<readonly Matcher[], string>();
function listKey(matchers: readonly Matcher[]): string {
  let key = listKeys.get(matchers);
  if (key === undefined) listKeys.set(matchers, (key = JSON.stringify(matchers.map((m) => m.config))));
  return key;
}

/**
 * What reachesSink() finds of a file, kept for the file's other sink matches: its sources and
 * sanitizers (their nodes, by the compiled flow's list) and each function's (or the module's)
 * assignments and calls, one traversal per list or scope and file, not per match. Valid for one
 * parsed file only.
 */
export interface FlowMemo {
  /** By listKey() and scope: the nodes a list of matchers finds in the scope. */
  matched: Map<string, Set<string>>;
  scopes: Map<string, ScopeIndex>;
  /** By guard (its config) and scope: the checks it matches, by node, and the text of the value each checks. */
  guards: Map<string, Map<string, string>>;
}

export const flowMemo = (): FlowMemo => ({ matched: new Map(), scopes: new Map(), guards: new Map() });

export function compileFlow(flow: FlowSpec): CompiledFlow {
  return {
    sink: flow.sink,
    sources: flow.sources.map(matcher),
    sanitizers: (flow.sanitizers ?? []).map(matcher),
    parameters: flow.parameters ?? [],
    freeNames: flow.freeNames === true,
    guards: (flow.guards ?? []).map((g) => ({
      config: { rule: g.rule, ...(g.constraints ? { constraints: g.constraints } : {}) } as NapiConfig,
      value: g.value,
      safe: g.safe,
      ...(g.normalized ? { normalized: anyOf(g.normalized.map(matcher)) } : {}),
    })),
    safeReceivers: (flow.safeReceivers ?? []).map((r) => ({
      calls: [matcher(r.rule)],
      receiver: r.receiver,
      made: anyOf(r.made.map(matcher)),
    })),
  };
}

/**
 * The kinds of node through which a value can carry input: names (followed to what is assigned
 * to them, a followed method's parameters, calls on them) and the kinds the sources match. An
 * expression with none of them (a literal, an operation on literals) cannot; undefined when a
 * source names no kind.
 */
const carrierKinds = new WeakMap<CompiledFlow, NapiConfig | null>();
function carriers(syntax: Syntax, flow: CompiledFlow): NapiConfig | undefined {
  let config = carrierKinds.get(flow);
  if (config === undefined) {
    const kinds = flow.sources.map((m) => m.kind);
    config = kinds.every((k) => k !== undefined)
      ? ({ rule: { any: [...new Set([syntax.identifier, ...kinds])].map((kind) => ({ kind })) } } as NapiConfig)
      : null;
    carrierKinds.set(flow, config);
  }
  return config ?? undefined;
}

const sameNode = (a: SgNode | null, b: SgNode) =>
  !!a &&
  a.kind() === b.kind() &&
  a.range().start.index === b.range().start.index &&
  a.range().end.index === b.range().end.index;

/** Where names are looked up: a function (or the module), up to a point, with its parameters' taint when called. */
interface Frame {
  scope: SgNode;
  /** Assignments from here on do not count (they come after the sink or the return). */
  before: number;
  /** A followed method's parameters: whether the caller's argument carries input. */
  params?: ReadonlyMap<string, () => boolean>;
}

/** The function's parameters of the flow's source types, as sources. */
function sourceParameters(syntax: Syntax, scope: SgNode, flow: CompiledFlow): Map<string, () => boolean> | undefined {
  const m = syntax.method;
  if (!m || !flow.parameters.length || !syntax.functions.has(String(scope.kind()))) return undefined;
  const params = new Map<string, () => boolean>();
  for (const p of scope.field(m.parameters)?.children() ?? []) {
    const name = p.field("name")?.text();
    if (name && flow.parameters.includes(p.field("type")?.text() ?? "")) params.set(name, () => true);
  }
  return params;
}

/** A function's assignments and calls, indexed once per file. */
interface ScopeIndex {
  /** By name: each assignment node (or call on the name) and its value nodes, in source order. */
  writes: Map<string, { node: SgNode; values: SgNode[]; assignment: boolean; update?: boolean }[]>;
  calls: Map<string, CallSite[]>;
}

/**
 * Whether the sink match's argument carries data from a source, within the function around the
 * match (or the module, outside any function), and the file's methods it calls.
 */
export function reachesSink(
  language: StructuralLanguage,
  match: SgNode,
  flow: CompiledFlow,
  memo: FlowMemo = flowMemo(),
): boolean {
  const syntax = SYNTAX[language];
  if (!syntax) return false;
  const multiple = flow.sink.startsWith("$$$");
  const sinks = multiple
    ? match.getMultipleMatches(flow.sink.slice(3)).filter((n) => n.isNamed())
    : [match.getMatch(flow.sink)];
  // A sink with no name and no node a source can be (a literal) carries no input: the file's
  // sources and sanitizers are then not looked for (a list's rule is compiled on every call).
  const kinds = carriers(syntax, flow);
  const live = sinks.filter((s): s is SgNode => s !== null && (kinds === undefined || s.find(kinds) !== null));
  if (!live.length) return false;
  const scope = match.ancestors().find((a) => syntax.functions.has(String(a.kind()))) ?? match.getRoot().root();
  const top: Frame = { scope, before: match.range().start.index, params: sourceParameters(syntax, scope, flow) };
  let budget = MAX_NODES;
  const following = new Set<string>();
  // Whether sanitizers stop the walk (see the end).
  let sanitizing = false;
  let methods: Map<string, SgNode[]> | undefined;
  const isSanitizer = matcherOf(flow.sanitizers, memo);
  const isSource = matcherOf(flow.sources, memo);

  const dead = (node: SgNode, frame: Frame) =>
    syntax.constants !== undefined && deadIn(syntax.constants, node, frame.scope, syntax.identifier);

  const indexOf = (scopeNode: SgNode): ScopeIndex => {
    const key = nodeKey(scopeNode);
    let index = memo.scopes.get(key);
    if (index) return index;
    index = { writes: new Map(), calls: new Map() };
    const add = (name: string, entry: { node: SgNode; values: SgNode[]; assignment: boolean; update?: boolean }) =>
      index!.writes.set(name, [...(index!.writes.get(name) ?? []), entry]);
    for (const [kind, fields] of Object.entries(syntax.assignments))
      for (const a of scopeNode.findAll({ rule: { kind } } as NapiConfig)) {
        const target = a.field(fields.target);
        const value = a.field(fields.value);
        // `x += y` updates x: it overwrites nothing (and x is no longer what was first assigned).
        const operator = a.field("operator")?.text();
        const update = operator !== undefined && operator !== "=" && operator !== ":=";
        if (target?.kind() === syntax.identifier && value)
          add(target.text(), { node: a, values: [value], assignment: !update, update });
        // a, b := x, y: each name its value; data, err := f(p): each name the one call's results.
        if (syntax.list !== undefined && target?.kind() === syntax.list && value) {
          const names = target.children().filter((x) => x.isNamed());
          const values = value.kind() === syntax.list ? value.children().filter((x) => x.isNamed()) : [value];
          names.forEach((t, i) => {
            const error = names.length !== values.length && syntax.errors?.test(t.text());
            if (t.kind() === syntax.identifier && t.text() !== "_" && !error)
              add(t.text(), {
                node: a,
                values: names.length === values.length ? [values[i]!] : values,
                assignment: !update,
                update,
              });
          });
        }
        // m["k"] = v: the collection carries v, and (collections.ts) holds it under "k".
        const subscript = syntax.constants?.subscript;
        const collection = subscript && target?.kind() === subscript.kind ? target.field(subscript.value) : null;
        const key = subscript ? target?.field(subscript.index) : null;
        if (collection?.kind() === syntax.identifier && key && value) {
          add(collection.text(), { node: a, values: [value], assignment: false });
          const site: CallSite = { node: a, method: "put", args: [key, value] };
          index.calls.set(collection.text(), [...(index.calls.get(collection.text()) ?? []), site]);
        }
      }
    if (syntax.call) {
      const call = syntax.call;
      for (const c of scopeNode.findAll({ rule: { kind: call.kind } } as NapiConfig)) {
        const parts = callParts(call, c);
        if (!parts) continue;
        const { receiver, name, args } = parts;
        if (receiver && syntax.fills?.has(name))
          for (const a of args)
            if (a.kind() === syntax.identifier) add(a.text(), { node: c, values: [receiver], assignment: false });
        if (receiver?.kind() !== syntax.identifier) continue;
        const site: CallSite = { node: c, method: name, args };
        index.calls.set(receiver.text(), [...(index.calls.get(receiver.text()) ?? []), site]);
        const local = !syntax.callsTaintLocalsOnly || index.writes.get(receiver.text())?.some((w) => w.assignment);
        if (args.length && local && !syntax.typeName?.test(receiver.text()))
          add(receiver.text(), { node: c, values: args, assignment: false });
      }
    }
    for (const list of index.writes.values())
      list.sort((a, b) => a.node.range().start.index - b.node.range().start.index);
    memo.scopes.set(key, index);
    return index;
  };

  // The block statement an assignment is, when it is one of its block's statements: it always
  // runs before what follows it in that block.
  const statementBlock = (node: SgNode): SgNode | undefined => {
    if (!syntax.statements || !syntax.blocks) return undefined;
    let n: SgNode | null = node;
    for (let i = 0; i < 2 && n; i++) {
      const parent: SgNode | null = n.parent();
      if (syntax.statements.has(String(n.kind())) && parent && syntax.blocks.has(String(parent.kind()))) return parent;
      n = parent;
    }
    return undefined;
  };
  const inside = (at: number, outer: SgNode) => at >= outer.range().start.index && at < outer.range().end.index;

  // The values written to `name` that may reach the end of the frame, and where each is written
  // (what the value reads, it reads there).
  const assignedValues = (name: string, frame: Frame): { value: SgNode; at: number }[] => {
    const writes = (indexOf(frame.scope).writes.get(name) ?? []).filter(
      (w) => w.node.range().start.index < frame.before && !dead(w.node, frame),
    );
    const live = writes.filter(
      (w, i) =>
        !writes.slice(i + 1).some((later) => {
          if (!later.assignment || later.node.range().start.index < w.node.range().end.index) return false;
          // A block that holds the use runs `later` before it: whatever was written before `later`,
          // in the block or before it, is gone at the use.
          const block = statementBlock(later.node);
          return block !== undefined && inside(frame.before, block);
        }),
    );
    return live.flatMap((w) => w.values.map((value) => ({ value, at: w.node.range().start.index })));
  };

  // The file's methods by name, for calls followed into them.
  const declared = (name: string): SgNode[] => {
    if (!syntax.method) return [];
    if (!methods) {
      methods = new Map();
      const m = syntax.method;
      for (const kind of m.kinds)
        for (const d of match
          .getRoot()
          .root()
          .findAll({ rule: { kind } } as NapiConfig)) {
          const n = d.field(m.name)?.text();
          if (n) methods.set(n, [...(methods.get(n) ?? []), d]);
        }
    }
    return methods.get(name) ?? [];
  };

  // A call to a method of this file: whether one of its returns carries input, its parameters
  // carrying what the call's arguments carry. Undefined when the call is not to such a method.
  const throughMethod = (node: SgNode, depth: number, frame: Frame): boolean | undefined => {
    const call = syntax.call;
    const m = syntax.method;
    if (!call || !m || node.kind() !== call.kind) return undefined;
    const args =
      node
        .field(call.arguments)
        ?.children()
        .filter((x) => x.isNamed()) ?? [];
    const targets = declared(node.field(call.name)?.text() ?? "").filter(
      (d) =>
        (d
          .field(m.parameters)
          ?.children()
          .filter((x) => x.isNamed()).length ?? -1) === args.length,
    );
    if (!targets.length) return undefined;
    if (depth >= MAX_DEPTH) return false;
    return targets.some((d) => {
      const params = new Map<string, () => boolean>();
      d.field(m.parameters)
        ?.children()
        .filter((x) => x.isNamed())
        .forEach((p, i) => {
          const n = p.field("name")?.text();
          if (n) params.set(n, () => tainted(args[i]!, depth + 1, frame));
        });
      return d.findAll({ rule: { kind: m.returns } } as NapiConfig).some((r) => {
        const value = r.children().find((x) => x.isNamed());
        const inMethod: Frame = { scope: d, before: r.range().start.index, params };
        return value !== undefined && !dead(r, inMethod) && tainted(value, depth + 1, inMethod);
      });
    });
  };

  // Whether the frame's scope writes the name anywhere before the frame's point (a write in a
  // branch never taken still makes it not free).
  const writtenBefore = (name: string, frame: Frame) =>
    (indexOf(frame.scope).writes.get(name) ?? []).some((w) => w.node.range().start.index < frame.before);

  // The last assignment to a name before a point of the frame's scope.
  const lastWrite = (name: string, at: number, frame: Frame) =>
    (indexOf(frame.scope).writes.get(name) ?? []).filter((w) => w.assignment && w.node.range().start.index < at).at(-1);

  // The checks a guard matches in a scope (one traversal per guard and scope, not per condition:
  // a rule is compiled on every call it is given to), by node, with the value each checks.
  const checksOf = (g: CompiledGuard, scope: SgNode): Map<string, string> => {
    const key = `${JSON.stringify(g.config)}@${nodeKey(scope)}`;
    let found = memo.guards.get(key);
    if (!found) {
      found = new Map();
      for (const m of scope.findAll(g.config)) {
        const value = m.getMatch(g.value);
        if (value?.kind() === syntax.identifier) found.set(nodeKey(m), value.text());
      }
      memo.guards.set(key, found);
    }
    return found;
  };

  // What the flow's guards say of `name` in the frame's scope (guards.ts).
  const checksOn = (name: string, frame: Frame): Checks => ({
    check: (cond, outcome) =>
      flow.guards.some((g) => {
        if (g.safe !== outcome || checksOf(g, frame.scope).get(nodeKey(cond)) !== name) return false;
        if (!g.normalized) return true;
        const writes = (indexOf(frame.scope).writes.get(name) ?? []).filter(
          (w) => w.node.range().start.index < cond.range().start.index,
        );
        return (
          writes.length > 0 && writes.every((w) => w.assignment && w.values.every((v) => v.matches(g.normalized!)))
        );
      }),
    resultOf: (cond) =>
      cond.kind() === syntax.identifier
        ? lastWrite(cond.text(), cond.range().start.index, frame)?.values[0]
        : undefined,
    writtenBetween: (from, to) =>
      (indexOf(frame.scope).writes.get(name) ?? []).some((w) => {
        const at = w.node.range().start.index;
        return at >= from && at < to;
      }),
  });

  // Whether a check decided the way from the frame's start to `use` of `name` (guards.ts).
  const isGuarded = (use: SgNode, name: string, frame: Frame): boolean =>
    syntax.guards !== undefined &&
    flow.guards.length > 0 &&
    guarded(syntax.guards, use, frame.scope, checksOn(name, frame));

  // Whether a value written to `name` at `at` is decided before `use`: a branching statement after
  // the write, in a block around the use, checks or reassigns the name on every way through it.
  const decidedAfter = (name: string, at: number, use: SgNode, frame: Frame): boolean => {
    const guards = syntax.guards;
    if (!guards || !flow.guards.length) return false;
    // An assignment that is a statement of the way's block (statementBlock(): Go's is the
    // statement_list inside it), or the way itself (Ruby's `x = "a" unless x == "b"`).
    const overwrites = (block: SgNode) =>
      (indexOf(frame.scope).writes.get(name) ?? []).some((w) => {
        if (!w.assignment) return false;
        if (sameNode(w.node, block)) return true;
        const b = statementBlock(w.node);
        return b !== undefined && (sameNode(b, block) || sameNode(b.parent(), block));
      });
    const checks = checksOn(name, frame);
    const until = use.range().start.index;
    for (const a of use.ancestors()) {
      if (guards.blocks.has(String(a.kind())))
        for (const s of a.children()) {
          const { start, end } = s.range();
          if (start.index <= at) continue;
          if (end.index > until) break;
          if (s.isNamed() && decides(guards, s, checks, overwrites)) return true;
        }
      if (sameNode(a, frame.scope)) break;
    }
    return false;
  };

  // A call made clean by its receiver (SafeReceiverSpec): every value the file assigns to it matches.
  const safeReceiver = (node: SgNode, kind: string, frame: Frame): boolean =>
    flow.safeReceivers.some((r) => {
      // The scope's calls of the rule are found once (matcherOf); only those are asked for their receiver.
      if (!matcherOf(r.calls, memo)(node, kind, frame.scope)) return false;
      const m = node.find(r.calls[0]!.config);
      const receiver = m && sameNode(m, node) ? m.getMatch(r.receiver) : null;
      if (receiver?.kind() !== syntax.identifier) return false;
      const writes = indexOf(match.getRoot().root()).writes.get(receiver.text()) ?? [];
      return writes.length > 0 && writes.every((w) => w.assignment && w.values.every((v) => v.matches(r.made)));
    });

  const tainted = (node: SgNode, depth: number, frame: Frame): boolean => {
    if (--budget < 0) return false;
    const kind = String(node.kind());
    if (sanitizing && isSanitizer(node, kind, frame.scope)) return false;
    if (sanitizing && flow.safeReceivers.length && safeReceiver(node, kind, frame)) return false;
    if (isSource(node, kind, frame.scope)) return true;
    if (kind === syntax.identifier) {
      const name = node.text();
      if (sanitizing && isGuarded(node, name, frame)) return false;
      const key = `${frame.scope.range().start.index}:${frame.before}:${name}`;
      if (depth >= MAX_DEPTH || following.has(key)) return false;
      following.add(key);
      // A tainted write is then asked whether a statement before the use decided it (only with
      // sanitizers on: the first walk looks for sources alone).
      const result =
        (frame.params?.get(name)?.() ?? false) ||
        (flow.freeNames && !frame.params?.has(name) && !writtenBefore(name, frame)) ||
        assignedValues(name, frame).some(
          (w) =>
            tainted(w.value, depth + 1, { ...frame, before: w.at }) &&
            !(sanitizing && decidedAfter(name, w.at, node, frame)),
        );
      following.delete(key);
      return result;
    }
    if (syntax.constants) {
      const taken = takenBranch(syntax.constants, node, frame.scope, syntax.identifier);
      if (taken) return tainted(taken, depth, frame);
      const at = node.range().start.index;
      const element = elementOf(syntax.constants, node, frame.scope, syntax.identifier, (name) => ({
        writes: (indexOf(frame.scope).writes.get(name) ?? [])
          .filter((w) => (w.assignment || w.update) && w.node.range().start.index < at)
          .map((w) => w.values[0]!),
        calls: (indexOf(frame.scope).calls.get(name) ?? []).filter((c) => c.node.range().start.index < at),
      }));
      if (element !== undefined) return element !== null && tainted(element, depth + 1, frame);
    }
    const followed = throughMethod(node, depth, frame);
    if (followed !== undefined) return followed;
    const skip = (syntax.names[kind] ?? []).map((f) => node.field(f));
    return node.children().some((c) => c.isNamed() && !skip.some((n) => sameNode(n, c)) && tainted(c, depth, frame));
  };
  // First without sanitizers: a sanitizer only cuts the walk short, so when no source is reached
  // without them (and the walk was not cut by its budget) none is with them, and the sanitizers'
  // list (rules with regexes, compiled on each call) is not looked for in the file. Most sinks
  // of a file that reads input are not reached by it.
  if (!live.some((s) => tainted(s, 0, top)) && budget >= 0) return false;
  if (!flow.sanitizers.length && !flow.guards.length && !flow.safeReceivers.length && budget >= 0) return true;
  budget = MAX_NODES;
  sanitizing = true;
  return live.some((s) => tainted(s, 0, top));
}
