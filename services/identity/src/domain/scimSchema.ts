// The SCIM schemas Verdict serves (RFC 7643 §4, §8.7.1): one definition drives /Schemas, the
// normalisation of what clients send (attribute names are case-insensitive, Entra ID sends
// booleans as "True"/"False"), `attributes`/`excludedAttributes` and case-exact filtering.
import { getCI, parseAttrPath, type AttrPath } from "./scimFilter.js";
import { scimErrors } from "./scimError.js";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

export type AttrType = "string" | "boolean" | "complex" | "reference" | "dateTime" | "integer" | "decimal" | "binary";

export interface AttrDef {
  name: string;
  type: AttrType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server" | "global";
  subAttributes?: AttrDef[];
  referenceTypes?: string[];
}

type Opts = Partial<Omit<AttrDef, "name" | "type" | "description">>;

function attr(name: string, type: AttrType, description: string, o: Opts = {}): AttrDef {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...o,
  };
}

const str = (name: string, description: string, o: Opts = {}) => attr(name, "string", description, o);

/** The sub-attributes of a multi-valued attribute such as emails (RFC 7643 §2.4). */
function multi(name: string, description: string, valueType: AttrType = "string", o: Opts = {}): AttrDef {
  return attr(name, "complex", description, {
    multiValued: true,
    subAttributes: [
      attr("value", valueType, `The ${name} value`),
      str("display", "A human-readable name"),
      str("type", `The kind of ${name} (work, home, other…)`),
      attr("primary", "boolean", "Whether this is the primary value"),
    ],
    ...o,
  });
}

export const USER_ATTRIBUTES: AttrDef[] = [
  str("userName", "Unique identifier of the person, typically their sign-in email", {
    required: true,
    uniqueness: "server",
  }),
  attr("name", "complex", "The person's name", {
    subAttributes: [
      str("formatted", "The full name"),
      str("familyName", "Family name"),
      str("givenName", "Given name"),
      str("middleName", "Middle name"),
      str("honorificPrefix", "Honorific prefix"),
      str("honorificSuffix", "Honorific suffix"),
    ],
  }),
  str("displayName", "The name shown for the person"),
  str("nickName", "Casual name"),
  attr("profileUrl", "reference", "Profile page", { referenceTypes: ["external"] }),
  str("title", "Title"),
  str("userType", "Relationship to the organization"),
  str("preferredLanguage", "Preferred language"),
  str("locale", "Locale"),
  str("timezone", "Time zone (IANA)"),
  attr("active", "boolean", "Whether the person may use Verdict; false ends their sessions, OAuth tokens and API keys"),
  multi("emails", "Email addresses"),
  multi("phoneNumbers", "Phone numbers"),
  multi("ims", "Instant messaging addresses"),
  multi("photos", "Photos", "reference"),
  attr("addresses", "complex", "Postal addresses", {
    multiValued: true,
    subAttributes: [
      str("formatted", "Full address"),
      str("streetAddress", "Street"),
      str("locality", "City"),
      str("region", "Region"),
      str("postalCode", "Postal code"),
      str("country", "Country"),
      str("type", "work, home or other"),
      attr("primary", "boolean", "Whether this is the primary address"),
    ],
  }),
  multi("groups", "The groups the person belongs to (managed through Groups)", "string", {
    mutability: "readOnly",
    subAttributes: [
      str("value", "Group id", { mutability: "readOnly" }),
      attr("$ref", "reference", "Group URI", { mutability: "readOnly", referenceTypes: ["Group"] }),
      str("display", "Group name", { mutability: "readOnly" }),
      str("type", "direct", { mutability: "readOnly" }),
    ],
  }),
  multi("entitlements", "Entitlements"),
  multi("roles", "Roles as the identity provider names them (Verdict's role comes from groups)"),
  multi("x509Certificates", "Certificates", "binary"),
];

export const ENTERPRISE_ATTRIBUTES: AttrDef[] = [
  str("employeeNumber", "Employee number"),
  str("costCenter", "Cost center"),
  str("organization", "Organization"),
  str("division", "Division"),
  str("department", "Department"),
  attr("manager", "complex", "The person's manager", {
    subAttributes: [
      str("value", "The manager's id"),
      attr("$ref", "reference", "The manager's URI", { referenceTypes: ["User"] }),
      str("displayName", "The manager's name", { mutability: "readOnly" }),
    ],
  }),
];

export const GROUP_ATTRIBUTES: AttrDef[] = [
  str("displayName", "The group's name; it decides the Verdict role of its members (see docs/scim.md)", {
    required: true,
  }),
  attr("members", "complex", "The group's members (users of this organization)", {
    multiValued: true,
    subAttributes: [
      str("value", "The member's id", { mutability: "immutable" }),
      attr("$ref", "reference", "The member's URI", { mutability: "immutable", referenceTypes: ["User"] }),
      str("display", "The member's name", { mutability: "readOnly" }),
      str("type", "User", { mutability: "immutable" }),
    ],
  }),
];

export interface ResourceSchema {
  core: string;
  attributes: AttrDef[];
  extensions: { urn: string; attributes: AttrDef[] }[];
}

export const USER_RESOURCE: ResourceSchema = {
  core: USER_SCHEMA,
  attributes: USER_ATTRIBUTES,
  extensions: [{ urn: ENTERPRISE_USER_SCHEMA, attributes: ENTERPRISE_ATTRIBUTES }],
};
export const GROUP_RESOURCE: ResourceSchema = { core: GROUP_SCHEMA, attributes: GROUP_ATTRIBUTES, extensions: [] };

/** Attributes every resource has (RFC 7643 §3.1), listed for case-exactness and projection. */
const COMMON_CASE_EXACT = new Set(["id", "externalid"]);

export function findAttr(defs: AttrDef[], name: string): AttrDef | undefined {
  const lower = name.toLowerCase();
  return defs.find((d) => d.name.toLowerCase() === lower);
}

/** The definitions a path's attribute lives in: the core schema's or an extension's. */
export function defsFor(rs: ResourceSchema, schema: string | undefined): AttrDef[] | undefined {
  if (!schema || schema.toLowerCase() === rs.core.toLowerCase()) return rs.attributes;
  return rs.extensions.find((e) => e.urn.toLowerCase() === schema.toLowerCase())?.attributes;
}

export function caseExact(rs: ResourceSchema, path: AttrPath): boolean {
  if (!path.schema && COMMON_CASE_EXACT.has(path.attr.toLowerCase()) && !path.sub) return true;
  const def = findAttr(defsFor(rs, path.schema) ?? [], path.attr);
  const sub = path.sub && def?.subAttributes ? findAttr(def.subAttributes, path.sub) : undefined;
  return (sub ?? def)?.caseExact ?? false;
}

function coerceScalar(def: AttrDef, v: unknown, where: string): unknown {
  switch (def.type) {
    case "boolean":
      if (typeof v === "boolean") return v;
      // Entra ID sends "True" / "False".
      if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
      throw scimErrors.invalidValue(`${where} must be a boolean`);
    case "integer":
      if (typeof v === "number" && Number.isInteger(v)) return v;
      throw scimErrors.invalidValue(`${where} must be an integer`);
    case "decimal":
      if (typeof v === "number") return v;
      throw scimErrors.invalidValue(`${where} must be a number`);
    case "complex":
      if (!v || typeof v !== "object" || Array.isArray(v)) throw scimErrors.invalidValue(`${where} must be an object`);
      return normalizeAttributes(def.subAttributes ?? [], v as Record<string, unknown>, where, false);
    default:
      if (typeof v === "string") return v;
      // Some clients send numbers or booleans for string attributes (employeeNumber: 42).
      if (typeof v === "number" || typeof v === "boolean") return String(v);
      throw scimErrors.invalidValue(`${where} must be a string`);
  }
}

/** One attribute's value as stored: multi-valued ones are arrays, at most one item primary. */
export function coerceValue(def: AttrDef, v: unknown, where: string): unknown {
  if (v === null || v === undefined) return undefined;
  if (def.multiValued) {
    const items = (Array.isArray(v) ? v : [v])
      .map((item, i) => coerceScalar(def, item, `${where}[${i}]`))
      .filter((item) => item !== undefined && !(typeof item === "object" && !Object.keys(item as object).length));
    let primarySeen = false;
    for (const item of items) {
      if (item && typeof item === "object" && (item as Record<string, unknown>).primary === true) {
        if (primarySeen) (item as Record<string, unknown>).primary = false;
        primarySeen = true;
      }
    }
    return items.length ? items : undefined;
  }
  if (Array.isArray(v)) {
    // Okta and Entra wrap single values in an array in some PATCH bodies.
    if (v.length === 1) return coerceScalar(def, v[0], where);
    throw scimErrors.invalidValue(`${where} takes one value, not a list`);
  }
  return coerceScalar(def, v, where);
}

/**
 * Keeps the attributes the schema defines (names made canonical), coerces their values, and
 * drops read-only ones (`groups`, `id`, `meta`): clients may send them back, they never win.
 */
export function normalizeAttributes(
  defs: AttrDef[],
  input: Record<string, unknown>,
  where: string,
  dropReadOnly = true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const def = findAttr(defs, key);
    if (!def || (dropReadOnly && def.mutability === "readOnly")) continue;
    const v = coerceValue(def, value, where ? `${where}.${def.name}` : def.name);
    if (v !== undefined) out[def.name] = v;
  }
  return out;
}

/** A resource body as stored: core attributes at the top, each extension under its URN; externalId kept. */
export function normalizeResource(rs: ResourceSchema, input: Record<string, unknown>): Record<string, unknown> {
  const out = normalizeAttributes(rs.attributes, input, "");
  const externalId = getCI(input, "externalId");
  if (externalId !== undefined && externalId !== null) {
    if (typeof externalId !== "string") throw scimErrors.invalidValue("externalId must be a string");
    out.externalId = externalId;
  }
  for (const ext of rs.extensions) {
    const v = getCI(input, ext.urn);
    if (v === undefined || v === null) continue;
    if (typeof v !== "object" || Array.isArray(v)) throw scimErrors.invalidValue(`${ext.urn} must be an object`);
    const attrs = normalizeAttributes(ext.attributes, v as Record<string, unknown>, ext.urn);
    if (Object.keys(attrs).length) out[ext.urn] = attrs;
  }
  return out;
}

export function requireAttributes(rs: ResourceSchema, resource: Record<string, unknown>): void {
  for (const def of rs.attributes) {
    const v = resource[def.name];
    if (def.required && (v === undefined || v === "")) throw scimErrors.invalidValue(`${def.name} is required`);
  }
}

/** The `schemas` a resource answers: its core schema and each extension it has values for. */
export function schemasOf(rs: ResourceSchema, resource: Record<string, unknown>): string[] {
  return [rs.core, ...rs.extensions.filter((e) => resource[e.urn] !== undefined).map((e) => e.urn)];
}

const ALWAYS = new Set(["id", "schemas"]);

/**
 * `attributes` (only these, plus id and schemas) or `excludedAttributes` (all but these) as
 * comma-separated paths, in short or full (URN) form.
 */
export function project(
  rs: ResourceSchema,
  resource: Record<string, unknown>,
  attributes: string | undefined,
  excluded: string | undefined,
): Record<string, unknown> {
  const parse = (list: string) =>
    list
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        const ext = rs.extensions.find((e) => e.urn.toLowerCase() === s.toLowerCase());
        if (ext) return { schema: ext.urn, attr: "" } as AttrPath;
        const p = parseAttrPath(s, scimErrors.invalidValue);
        const core = !p.schema || p.schema.toLowerCase() === rs.core.toLowerCase();
        const extUrn = core
          ? undefined
          : rs.extensions.find((e) => e.urn.toLowerCase() === p.schema!.toLowerCase())?.urn;
        return { ...p, schema: extUrn } as AttrPath;
      });
  const pick = (obj: Record<string, unknown>, paths: AttrPath[], keep: boolean) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      const hits = paths.filter((p) => p.attr.toLowerCase() === k.toLowerCase());
      const whole = hits.some((p) => !p.sub);
      if (keep) {
        if (whole) out[k] = v;
        else if (hits.length)
          out[k] = subPick(
            v,
            hits.map((h) => h.sub!),
            true,
          );
      } else {
        if (whole) continue;
        out[k] = hits.length
          ? subPick(
              v,
              hits.map((h) => h.sub!),
              false,
            )
          : v;
      }
    }
    return out;
  };
  const subPick = (v: unknown, subs: string[], keep: boolean): unknown => {
    const one = (item: unknown) => {
      if (!item || typeof item !== "object") return item;
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(item as Record<string, unknown>)) {
        const listed = subs.some((s) => s.toLowerCase() === k.toLowerCase());
        if (listed === keep) o[k] = x;
      }
      return o;
    };
    return Array.isArray(v) ? v.map(one) : one(v);
  };
  if (attributes) {
    const paths = parse(attributes);
    const core = paths.filter((p) => !p.schema);
    const out = pick(resource, core, true);
    for (const k of Object.keys(resource)) if (ALWAYS.has(k)) out[k] = resource[k];
    for (const ext of rs.extensions) {
      const v = resource[ext.urn] as Record<string, unknown> | undefined;
      if (!v) continue;
      const extPaths = paths.filter((p) => p.schema === ext.urn);
      if (extPaths.some((p) => !p.attr)) out[ext.urn] = v;
      else if (extPaths.length) out[ext.urn] = pick(v, extPaths, true);
    }
    return reorder(resource, out);
  }
  if (excluded) {
    const paths = parse(excluded);
    const out = pick(
      resource,
      paths.filter((p) => !p.schema && !ALWAYS.has(p.attr)),
      false,
    );
    for (const ext of rs.extensions) {
      const v = resource[ext.urn] as Record<string, unknown> | undefined;
      if (!v) continue;
      const extPaths = paths.filter((p) => p.schema === ext.urn);
      if (extPaths.some((p) => !p.attr)) delete out[ext.urn];
      else out[ext.urn] = pick(v, extPaths, false);
    }
    return reorder(resource, out);
  }
  return resource;
}

function reorder(original: Record<string, unknown>, picked: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(original)) if (k in picked) out[k] = picked[k];
  return out;
}

/** The Schema resources of /Schemas (RFC 7643 §7). */
export function schemaResources(baseUrl: string): Record<string, unknown>[] {
  const one = (id: string, name: string, description: string, attributes: AttrDef[]) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${id}` },
  });
  return [
    one(USER_SCHEMA, "User", "A person of the organization", USER_ATTRIBUTES),
    one(ENTERPRISE_USER_SCHEMA, "EnterpriseUser", "Enterprise attributes of a person", ENTERPRISE_ATTRIBUTES),
    one(GROUP_SCHEMA, "Group", "A group of people; its name maps to a Verdict role", GROUP_ATTRIBUTES),
  ];
}
