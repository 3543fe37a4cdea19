// Between a stored record, a proto message and a JSON body, an optional value that is not there
// is written three ways: a record keeps null (a document field read back), ts-proto's message
// leaves it undefined, and the REST contract writes null. These two helpers are that mapping,
// once for every service's gRPC answers and the gateway's hand-written JSON.
//
// Each copies only the fields it is given: records hold what no answer shows (hashes, sealed
// secrets, organization ids), so a field reaches a message or a body only where it is named.

/** A record's fields as a message's: a nullable field becomes optional (null reads as absent). */
export type MessageFields<T> = { [K in keyof T]: null extends T[K] ? Exclude<T[K], null> | undefined : T[K] };

/** A message's fields as JSON's: an optional field is null when absent. */
export type JsonFields<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] };

/** The named fields of a record, each stored null as undefined (the message leaves it out). */
export function messageFields<T extends object, K extends keyof T>(
  record: T,
  keys: readonly K[],
): MessageFields<Pick<T, K>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const key of keys) out[key] = record[key] ?? undefined;
  return out as MessageFields<Pick<T, K>>;
}

/** The named fields of a message, each absent one as null (the REST contract writes it). */
export function jsonFields<T extends object, K extends keyof T>(
  message: T,
  keys: readonly K[],
): JsonFields<Pick<T, K>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const key of keys) out[key] = message[key] ?? null;
  return out as JsonFields<Pick<T, K>>;
}
