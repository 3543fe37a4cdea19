// Which part of a SCIM filter the store can answer through an index (RFC 7644 §3.4.2.2), so a
// lookup the identity providers send on every sync (`userName eq "…"`, `externalId eq "…"`,
// `displayName eq "…"`) reads one document instead of every member of the organization.
// Pure: it maps a parsed filter to equality conditions on indexed fields of the stored record;
// the rest of the filter (if any) is still evaluated on the resources those conditions find.
import type { AttrPath, Filter } from "./scimFilter.js";
import type { ResourceSchema } from "./scimSchema.js";

/** An indexed field of the stored record, and how a filter value becomes its stored value. */
interface IndexedAttr {
  field: string;
  /** Case-insensitive attributes (caseExact false) are stored lowercased. */
  lower: boolean;
}

/** Lowercase attribute name -> its indexed field, per resource type. */
const INDEXED: Record<"User" | "Group", Record<string, IndexedAttr>> = {
  User: {
    id: { field: "scim_id", lower: false },
    username: { field: "user_name_key", lower: true },
    externalid: { field: "external_id", lower: false },
  },
  Group: {
    id: { field: "group_id", lower: false },
    displayname: { field: "display_name_key", lower: true },
    externalid: { field: "external_id", lower: false },
  },
};

export interface StoreQuery {
  /** Equality conditions on indexed fields; every resource the filter matches satisfies them. */
  where: Record<string, string>;
  /** Whether they are the whole filter (then counting and paging can happen in the store). */
  exact: boolean;
  /** Two conditions on one field that cannot both hold: nothing matches. */
  impossible: boolean;
}

function indexedAttr(kind: "User" | "Group", rs: ResourceSchema, path: AttrPath): IndexedAttr | undefined {
  if (path.sub !== undefined) return undefined;
  if (path.schema !== undefined && path.schema.toLowerCase() !== rs.core.toLowerCase()) return undefined;
  return INDEXED[kind][path.attr.toLowerCase()];
}

/** What the stored record keeps of a resource's externalId for lookups ("" when it has none). */
export function externalIdKey(resource: Record<string, unknown>): string {
  return typeof resource.externalId === "string" ? resource.externalId : "";
}

const none = (): StoreQuery => ({ where: {}, exact: false, impossible: false });

/**
 * The store's share of a filter: `attr eq "string"` on an indexed attribute, and `and`s of such
 * terms (the other side of an `and` is left to the caller). No filter: everything, exactly.
 */
export function storeQuery(kind: "User" | "Group", rs: ResourceSchema, filter: Filter | undefined): StoreQuery {
  if (!filter) return { where: {}, exact: true, impossible: false };
  if (filter.op === "eq") {
    const attr = indexedAttr(kind, rs, filter.path);
    // "" is what the store holds for "no externalId": never a value to look up there.
    if (!attr || typeof filter.value !== "string" || filter.value === "") return none();
    return {
      where: { [attr.field]: attr.lower ? filter.value.toLowerCase() : filter.value },
      exact: true,
      impossible: false,
    };
  }
  if (filter.op === "and") {
    const left = storeQuery(kind, rs, filter.left);
    const right = storeQuery(kind, rs, filter.right);
    const where = { ...left.where };
    let impossible = left.impossible || right.impossible;
    for (const [field, value] of Object.entries(right.where)) {
      if (field in where && where[field] !== value) impossible = true;
      where[field] = value;
    }
    return { where, exact: left.exact && right.exact, impossible };
  }
  return none();
}
