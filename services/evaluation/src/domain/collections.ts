// What `map.get("key")` or `list.get(1)` gives back, for data flow (flow.ts), when the map or
// list is a fresh one (`new HashMap<>()`, `new ArrayList<>()`) that the function fills with
// constant keys (`put("keyA", v)`) or plain appends and removals by constant index (`add(v)`,
// `remove(0)`): then the element is known, and input put under another key or index does not
// reach it. Python the same way: `m = {}`, `m["keyA"] = v`, `m["keyA"]` or `m.get("keyA")`; `lst =
// []`, `lst.append(v)`, `lst.pop(0)`, `lst[1]`; a `configparser.ConfigParser()` filled with
// `conf.set(section, "keyA", v)` and read with `conf.get(section, "keyA")` (flow.ts passes a
// subscript assignment as a call `put(key, value)`). Anything else on the collection (another method, a key or index that is not
// constant, the collection passed or assigned elsewhere) leaves it unknown, and the flow walk
// treats the collection as carrying whatever was put in it.
import type { SgNode } from "@ast-grep/napi";
import { callParts, constantValue, type ConstantSyntax } from "./constant.js";

/** A call on a name: the call, its method name and its arguments. */
export interface CallSite {
  node: SgNode;
  method: string;
  args: SgNode[];
}

/** What the function does to a name before a point: the values assigned to it, the calls on it. */
export type Uses = (name: string) => { writes: SgNode[]; calls: CallSite[] };

// Methods that read a collection without changing it (and `add_section`, which adds no element).
const READS = new Set([
  "get",
  "size",
  "isEmpty",
  "containsKey",
  "contains",
  "keySet",
  "values",
  "toString",
  "hashCode",
  "keys",
  "items",
  "copy",
  "has_section",
  "has_option",
  "sections",
  "options",
  "add_section",
]);

// Appends, and removals by index (`pop()` with none: the last), by language's method names.
const APPENDS = new Set(["add", "append"]);
const REMOVALS: Readonly<Record<string, string>> = { method_invocation: "remove", call: "pop" };

/**
 * The element a `get` call (or, in Python, a subscript) on a fresh map or list gives back: its
 * value node, null when nothing was put there (or only constants), undefined when it cannot be
 * known.
 */
export function elementOf(
  syntax: ConstantSyntax,
  node: SgNode,
  scope: SgNode,
  identifier: string,
  uses: Uses,
): SgNode | null | undefined {
  const call = callParts(syntax.call, node);
  const read =
    call?.name === "get" && call.args.length >= 1 && call.args.length <= 2
      ? { receiver: call.receiver, keys: call.args }
      : syntax.subscript && node.kind() === syntax.subscript.kind
        ? { receiver: node.field(syntax.subscript.value), keys: [node.field(syntax.subscript.index)] }
        : undefined;
  if (read?.receiver?.kind() !== identifier || read.keys.some((k) => !k)) return undefined;
  const constant = (n: SgNode) => constantValue(syntax, n, scope, identifier);
  const { writes, calls } = uses(read.receiver.text());
  // One write: the fresh collection.
  if (writes.length !== 1 || !syntax.emptyCollection(writes[0]!)) return undefined;
  const changes = calls.filter((c) => !READS.has(c.method));
  // A keyed store: put(k, v) (a subscript assignment), or configparser's set(section, option, v).
  const sections = changes.some((c) => c.method === "set");
  if (
    changes.every((c) => (c.method === "put" && c.args.length === 2) || (c.method === "set" && c.args.length === 3))
  ) {
    const keyOf = (parts: SgNode[]) => {
      const values = parts.map(constant);
      return values.some((v) => v === undefined) ? undefined : values.join("\u0000");
    };
    // dict.get(k, default): the default when k is not there.
    const [wanted, fallback] = sections ? [read.keys, undefined] : [read.keys.slice(0, 1), read.keys[1]];
    const key = keyOf(wanted as SgNode[]);
    if (key === undefined || (sections && changes.some((c) => c.method === "put"))) return undefined;
    let found: SgNode | null = null;
    for (const c of changes) {
      const k = keyOf(c.args.slice(0, -1));
      if (k === undefined) return undefined;
      if (k === key) found = c.args.at(-1)!;
    }
    return found ?? fallback ?? null;
  }
  const key = read.keys.length === 1 ? constant(read.keys[0]!) : undefined;
  if (typeof key !== "number") return undefined;
  const list: SgNode[] = [];
  for (const c of changes) {
    if (APPENDS.has(c.method) && c.args.length === 1) list.push(c.args[0]!);
    else if (c.method === REMOVALS[String(c.node.kind())] && (c.args.length === 1 || c.method === "pop")) {
      const i = c.args.length ? constant(c.args[0]!) : list.length - 1;
      if (typeof i !== "number" || i < 0 || i >= list.length) return undefined;
      list.splice(i, 1);
    } else return undefined;
  }
  return key >= 0 && key < list.length ? list[key]! : null;
}
