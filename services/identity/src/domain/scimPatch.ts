// PATCH (RFC 7644 §3.5.2) on a stored SCIM resource, with what Okta and Entra ID actually send:
// capitalised ops ("Replace"), no path and a value object (Okta's `{"active": false}`), full
// URN paths inside that object (Entra's enterprise attributes), `emails[type eq "work"].value`
// on an address that does not exist yet (it is created), and `remove` on `members` with a value
// list instead of a filter. The result is normalised again, so PATCH can store nothing PUT could not.
import { scimErrors } from "./scimError.js";
import { getCI, matches, parsePatchPath, type Filter, type PatchPath } from "./scimFilter.js";
import {
  caseExact,
  defsFor,
  findAttr,
  normalizeResource,
  requireAttributes,
  type AttrDef,
  type ResourceSchema,
} from "./scimSchema.js";

export const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

type Obj = Record<string, unknown>;
type OpName = "add" | "replace" | "remove";

const EXTERNAL_ID: AttrDef = {
  name: "externalId",
  type: "string",
  multiValued: false,
  description: "",
  required: false,
  caseExact: true,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
};

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** Reads a PatchOp body into its operations, or 400 invalidSyntax. */
export function patchOperations(body: unknown): { op: OpName; path?: string; value?: unknown }[] {
  if (!isObj(body)) throw scimErrors.invalidSyntax("A PATCH body is a PatchOp object");
  const schemas = getCI(body, "schemas");
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(PATCH_OP_SCHEMA)))
    throw scimErrors.invalidSyntax(`schemas must be ["${PATCH_OP_SCHEMA}"]`);
  const ops = getCI(body, "Operations");
  if (!Array.isArray(ops) || !ops.length) throw scimErrors.invalidSyntax("Operations must be a non-empty list");
  return ops.map((o, i) => {
    if (!isObj(o)) throw scimErrors.invalidSyntax(`Operations[${i}] must be an object`);
    const op = String(getCI(o, "op") ?? "").toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove")
      throw scimErrors.invalidSyntax(`Operations[${i}].op must be add, replace or remove`);
    const path = getCI(o, "path");
    if (path !== undefined && path !== null && (typeof path !== "string" || !path.trim()))
      throw scimErrors.invalidPath(`Operations[${i}].path must be a non-empty string`);
    const value = getCI(o, "value");
    return { op, ...(typeof path === "string" ? { path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function simpleEq(f: Filter): { attr: string; value: unknown } | undefined {
  return f.op === "eq" && !f.path.sub && !f.path.schema ? { attr: f.path.attr, value: f.value } : undefined;
}

function sameItem(a: unknown, b: unknown): boolean {
  if (isObj(a) && isObj(b) && a.value !== undefined && b.value !== undefined)
    return String(a.value) === String(b.value);
  return JSON.stringify(a) === JSON.stringify(b);
}

function applyOne(rs: ResourceSchema, resource: Obj, op: OpName, path: PatchPath, value: unknown): void {
  const isExternalId = !path.schema && path.attr.toLowerCase() === "externalid";
  const defs = defsFor(rs, path.schema);
  if (!defs) throw scimErrors.invalidPath(`Unknown schema ${path.schema}`);
  const lower = path.attr.toLowerCase();
  if (!path.schema && (lower === "id" || lower === "meta" || lower === "schemas"))
    throw scimErrors.mutability(`${path.attr} is read-only`);
  const def = isExternalId ? EXTERNAL_ID : findAttr(defs, path.attr);
  if (!def) throw scimErrors.invalidPath(`Unknown attribute ${path.attr}`);
  if (def.mutability === "readOnly") throw scimErrors.mutability(`${def.name} is read-only`);
  const extUrn =
    path.schema && path.schema.toLowerCase() !== rs.core.toLowerCase()
      ? rs.extensions.find((e) => e.urn.toLowerCase() === path.schema!.toLowerCase())!.urn
      : undefined;
  let container: Obj;
  if (extUrn) {
    if (!isObj(resource[extUrn])) {
      if (op === "remove") return;
      resource[extUrn] = {};
    }
    container = resource[extUrn] as Obj;
  } else container = resource;
  const sub = path.sub ? def.subAttributes && findAttr(def.subAttributes, path.sub) : undefined;
  if (path.sub && !sub) throw scimErrors.invalidPath(`${def.name} has no sub-attribute ${path.sub}`);
  const current = container[def.name];

  if (path.filter) {
    if (!def.multiValued) throw scimErrors.invalidPath(`${def.name} is not multi-valued: it takes no filter`);
    const items = Array.isArray(current) ? (current as unknown[]) : [];
    const ctx = {
      coreSchema: rs.core,
      caseExact: (p: { attr: string }) => caseExact(rs, { attr: def.name, sub: p.attr }),
    };
    const hit = items.map((item) => matches(item, path.filter!, ctx));
    if (op === "remove") {
      container[def.name] = sub
        ? items.map((item, i) => {
            if (!hit[i] || !isObj(item)) return item;
            const copy = { ...item };
            delete copy[sub.name];
            return copy;
          })
        : items.filter((_, i) => !hit[i]);
      return;
    }
    if (hit.some(Boolean)) {
      container[def.name] = items.map((item, i) => {
        if (!hit[i]) return item;
        if (sub) return { ...(isObj(item) ? item : {}), [sub.name]: value };
        return isObj(item) && isObj(value) ? { ...item, ...value } : value;
      });
      return;
    }
    // Entra ID sets `emails[type eq "work"].value` before any work email exists: create it.
    const eq = simpleEq(path.filter);
    if (!eq) throw scimErrors.noTarget(`No value of ${def.name} matches the path's filter`);
    const created = sub
      ? { [eq.attr]: eq.value, [sub.name]: value }
      : { ...(isObj(value) ? value : {}), [eq.attr]: eq.value };
    container[def.name] = [...items, created];
    return;
  }

  if (sub) {
    if (def.multiValued) {
      const items = Array.isArray(current) ? (current as unknown[]) : [];
      if (op === "remove") {
        container[def.name] = items.map((item) => {
          if (!isObj(item)) return item;
          const copy = { ...item };
          delete copy[sub.name];
          return copy;
        });
      } else {
        container[def.name] = items.length
          ? items.map((item) => ({ ...(isObj(item) ? item : {}), [sub.name]: value }))
          : [{ [sub.name]: value }];
      }
      return;
    }
    const obj = isObj(current) ? { ...current } : {};
    if (op === "remove") delete obj[sub.name];
    else obj[sub.name] = value;
    container[def.name] = obj;
    return;
  }

  if (op === "remove") {
    // Entra ID removes group members as {"op":"Remove","path":"members","value":[{"value":"…"}]}.
    if (def.multiValued && value !== undefined && value !== null) {
      const gone = Array.isArray(value) ? value : [value];
      const items = Array.isArray(current) ? (current as unknown[]) : [];
      container[def.name] = items.filter((item) => !gone.some((g) => sameItem(item, g)));
    } else delete container[def.name];
    return;
  }
  if (def.multiValued) {
    const incoming = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
    if (op === "replace") container[def.name] = incoming;
    else {
      const items = Array.isArray(current) ? [...(current as unknown[])] : [];
      for (const v of incoming) {
        const at = items.findIndex((item) => sameItem(item, v));
        if (at >= 0) items[at] = isObj(items[at]) && isObj(v) ? { ...(items[at] as Obj), ...v } : v;
        else items.push(v);
      }
      container[def.name] = items;
    }
    return;
  }
  if (def.type === "complex" && isObj(current) && isObj(value)) container[def.name] = { ...current, ...value };
  else if (value === null) delete container[def.name];
  else container[def.name] = value;
}

/** The operations applied in order to a copy of the resource; answers the normalised result. */
export function applyPatch(
  rs: ResourceSchema,
  resource: Obj,
  operations: { op: OpName; path?: string; value?: unknown }[],
): Obj {
  const next = clone(resource);
  for (const o of operations) {
    const wholeExtension =
      o.path !== undefined
        ? rs.extensions.find((e) => e.urn.toLowerCase() === o.path!.trim().toLowerCase())
        : undefined;
    if (wholeExtension) {
      if (o.op === "remove") delete next[wholeExtension.urn];
      else if (!isObj(o.value)) throw scimErrors.invalidValue(`${o.op} ${wholeExtension.urn} needs an object value`);
      else {
        if (o.op === "replace") delete next[wholeExtension.urn];
        for (const [k, x] of Object.entries(o.value))
          if (k.toLowerCase() !== "schemas") applyOne(rs, next, "add", { schema: wholeExtension.urn, attr: k }, x);
      }
      continue;
    }
    if (o.path !== undefined) {
      if (o.op !== "remove" && o.value === undefined) throw scimErrors.invalidValue(`${o.op} ${o.path} needs a value`);
      applyOne(rs, next, o.op, parsePatchPath(o.path), o.value);
      continue;
    }
    if (o.op === "remove") throw scimErrors.noTarget("remove needs a path");
    if (!isObj(o.value)) throw scimErrors.invalidValue(`${o.op} without a path needs an object value`);
    for (const [key, v] of Object.entries(o.value)) {
      const ext = rs.extensions.find((e) => e.urn.toLowerCase() === key.toLowerCase());
      if (ext && isObj(v)) {
        for (const [k, x] of Object.entries(v))
          if (k.toLowerCase() !== "schemas") applyOne(rs, next, o.op, { schema: ext.urn, attr: k }, x);
      } else if (key.toLowerCase() === "schemas" || key.toLowerCase() === "id" || key.toLowerCase() === "meta") {
        continue;
      } else {
        applyOne(rs, next, o.op, parsePatchPath(key), v);
      }
    }
  }
  const normalized = normalizeResource(rs, next);
  requireAttributes(rs, normalized);
  return normalized;
}
