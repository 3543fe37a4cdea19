// Intra-procedural data flow for structural rules: does a value read from a declared source (a
// request parameter) reach the sink's argument within the same function, through assignments,
// concatenation, formatting and calls, without passing through a sanitizer? Enough to tell
// `cursor.execute(q % request.args["id"])` from `cursor.execute(CONSTANT_QUERY % ())`.
//
// The walk reads the syntax tree ast-grep parsed: from the sink's argument down through the
// expression; a name is followed to its assignments in the enclosing function that come before
// the sink (any of them tainted taints the name, so a branch that assigns input counts). Each
// check is bounded (MAX_NODES nodes, names followed at most MAX_DEPTH deep), so a large function
// costs a bounded amount per sink.
import type { NapiConfig, SgNode } from "@ast-grep/napi";
import type { StructuralLanguage } from "./structural.js";

/** A flow condition: the metavariable of the sink's argument, and what taints and cleans it. */
export interface FlowSpec {
  /** The sink's metavariable (without `$`) whose value must carry data from a source. */
  sink: string;
  /** ast-grep rules: expressions that are untrusted input (`request.args`, `req.query`). */
  sources: Record<string, unknown>[];
  /** ast-grep rules: expressions whose value is clean whatever goes in (`int(x)`, `shlex.quote(x)`). */
  sanitizers?: Record<string, unknown>[];
}

/** How a language writes functions, assignments and names, as tree-sitter kinds and fields. */
interface Syntax {
  functions: ReadonlySet<string>;
  /** Assignment kinds: the field of the target and of the value. */
  assignments: Readonly<Record<string, { target: string; value: string }>>;
  identifier: string;
  /** Kinds whose children other than `field` are names, not values (`a.b`: only `a` is read). */
  readOnly: Readonly<Record<string, string>>;
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
  readOnly: { member_expression: "object" },
};

const SYNTAX: Partial<Record<StructuralLanguage, Syntax>> = {
  python: {
    functions: new Set(["function_definition", "lambda"]),
    assignments: {
      assignment: { target: "left", value: "right" },
      augmented_assignment: { target: "left", value: "right" },
    },
    identifier: "identifier",
    readOnly: { attribute: "object", keyword_argument: "value" },
  },
  javascript: JS,
  typescript: JS,
  tsx: JS,
};

/** The languages flow conditions can be written for. */
export const FLOW_LANGUAGES = Object.keys(SYNTAX) as StructuralLanguage[];

const MAX_NODES = 2000;
const MAX_DEPTH = 8;

/** A flow condition ready to check: its rules as ast-grep configurations. */
export interface CompiledFlow {
  sink: string;
  sources: NapiConfig[];
  sanitizers: NapiConfig[];
}

export function compileFlow(flow: FlowSpec): CompiledFlow {
  const asConfig = (rule: Record<string, unknown>) => ({ rule }) as NapiConfig;
  return { sink: flow.sink, sources: flow.sources.map(asConfig), sanitizers: (flow.sanitizers ?? []).map(asConfig) };
}

/**
 * Whether the sink match's argument carries data from a source, within the function around the
 * match (or the module, outside any function).
 */
export function reachesSink(language: StructuralLanguage, match: SgNode, flow: CompiledFlow): boolean {
  const syntax = SYNTAX[language];
  const argument = match.getMatch(flow.sink);
  if (!syntax || !argument) return false;
  const scope = match.ancestors().find((a) => syntax.functions.has(String(a.kind()))) ?? match.getRoot().root();
  const sinkAt = match.range().start.index;
  let budget = MAX_NODES;
  const following = new Set<string>();

  // Assignments to `name` in the scope before the sink, each as its value node.
  const assignedValues = (name: string): SgNode[] => {
    const values: SgNode[] = [];
    for (const [kind, fields] of Object.entries(syntax.assignments)) {
      for (const a of scope.findAll({ rule: { kind } } as NapiConfig)) {
        if (a.range().start.index >= sinkAt) continue;
        const target = a.field(fields.target);
        const value = a.field(fields.value);
        if (target?.kind() === syntax.identifier && target.text() === name && value) values.push(value);
      }
    }
    return values;
  };

  const tainted = (node: SgNode, depth: number): boolean => {
    if (--budget < 0) return false;
    if (flow.sanitizers.some((s) => node.matches(s))) return false;
    if (flow.sources.some((s) => node.matches(s))) return true;
    const kind = String(node.kind());
    if (kind === syntax.identifier) {
      const name = node.text();
      if (depth >= MAX_DEPTH || following.has(name)) return false;
      following.add(name);
      const result = assignedValues(name).some((v) => tainted(v, depth + 1));
      following.delete(name);
      return result;
    }
    const only = syntax.readOnly[kind];
    if (only) {
      const read = node.field(only);
      return read ? tainted(read, depth) : false;
    }
    return node.children().some((c) => c.isNamed() && tainted(c, depth));
  };
  return tainted(argument, 0);
}
