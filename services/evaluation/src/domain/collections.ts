// What `map.get("key")` or `list.get(1)` gives back, for data flow (flow.ts), when the map or
// list is a fresh one (`new HashMap<>()`, `new ArrayList<>()`) that the function fills with
// constant keys (`put("keyA", v)`) or plain appends and removals by constant index (`add(v)`,
// `remove(0)`): then the element is known, and input put under another key or index does not
// reach it. Anything else on the collection (another method, a key or index that is not
// constant, the collection passed or assigned elsewhere) leaves it unknown, and the flow walk
// treats the collection as carrying whatever was put in it.
import type { SgNode } from "@ast-grep/napi";
import { constantValue, type ConstantSyntax } from "./constant.js";

/** A call on a name: the call, its method name and its arguments. */
export interface CallSite {
  node: SgNode;
  method: string;
  args: SgNode[];
}

/** What the function does to a name before a point: the values assigned to it, the calls on it. */
export type Uses = (name: string) => { writes: SgNode[]; calls: CallSite[] };

// Methods that read a collection without changing it.
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
]);

/**
 * The element a `get` call on a fresh map or list gives back: its value node, null when nothing
 * was put there (or only constants), undefined when it cannot be known.
 */
export function elementOf(
  syntax: ConstantSyntax,
  node: SgNode,
  scope: SgNode,
  identifier: string,
  uses: Uses,
): SgNode | null | undefined {
  if (node.kind() !== syntax.call.kind || node.field(syntax.call.name)?.text() !== "get") return undefined;
  const receiver = node.field(syntax.call.receiver);
  const args =
    node
      .field(syntax.call.arguments)
      ?.children()
      .filter((x) => x.isNamed()) ?? [];
  if (receiver?.kind() !== identifier || args.length !== 1) return undefined;
  const key = constantValue(syntax, args[0]!, scope, identifier);
  if (key === undefined) return undefined;
  const { writes, calls } = uses(receiver.text());
  // One write: the fresh collection (no arguments to copy from).
  const fresh = writes.length === 1 && writes[0]!.kind() === "object_creation_expression";
  const made = fresh
    ? writes[0]!
        .field(syntax.call.arguments)
        ?.children()
        .filter((x) => x.isNamed())
    : undefined;
  if (!fresh || made?.length) return undefined;
  const changes = calls.filter((c) => !READS.has(c.method));
  if (changes.every((c) => c.method === "put" && c.args.length === 2)) {
    let found: SgNode | null = null;
    for (const c of changes) {
      const k = constantValue(syntax, c.args[0]!, scope, identifier);
      if (k === undefined) return undefined;
      if (k === key) found = c.args[1]!;
    }
    return found;
  }
  if (typeof key !== "number") return undefined;
  const list: SgNode[] = [];
  for (const c of changes) {
    if (c.method === "add" && c.args.length === 1) list.push(c.args[0]!);
    else if (c.method === "remove" && c.args.length === 1) {
      const i = constantValue(syntax, c.args[0]!, scope, identifier);
      if (typeof i !== "number" || i < 0 || i >= list.length) return undefined;
      list.splice(i, 1);
    } else return undefined;
  }
  return key >= 0 && key < list.length ? list[key]! : null;
}
