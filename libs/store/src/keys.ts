// Field names a document may hold on every store. FerretDB (the MongoDB-compatible server of the
// distributed mode) refuses a key that contains "." or starts with "$", and MongoDB reads such a
// key as a path in queries; free-form maps that end up in documents (an audit event's changes,
// keyed "settings.require_mfa") are stored with those characters percent-encoded and read back
// exactly: "%" -> "%25", "." -> "%2E", a leading "$" -> "%24".

type Mapper = (key: string) => string;

function mapKeys(value: unknown, mapper: Mapper): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, mapper));
  if (value === null || typeof value !== "object" || value instanceof Date || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[mapper(k)] = mapKeys(v, mapper);
  return out;
}

const encodeKey: Mapper = (k) => k.replace(/%/g, "%25").replace(/\./g, "%2E").replace(/^\$/, "%24");
const decodeKey: Mapper = (k) => k.replace(/%(25|2E|24)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A value whose object keys (at every depth) every store accepts; storedKeys() undoes it. */
export function storableKeys<T>(value: T): T {
  return mapKeys(value, encodeKey) as T;
}

/** The value storableKeys() was given, from what it returned. */
export function storedKeys<T>(value: T): T {
  return mapKeys(value, decodeKey) as T;
}
