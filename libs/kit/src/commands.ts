// Between a gRPC handler and its use case, a request's fields keep their proto names and values
// and change only their spelling: proto fields are snake_case, use-case commands camelCase
// (DESIGN.md: use cases `(deps, command)`). These two converters are that mapping, once, so no
// handler lists a request's fields by hand: `createPolicy(deps, commandOf(req))` type-checks
// against the use case's command, and a field added to the request and the command reaches the
// use case without a handler edit. Only the top level is renamed: a nested message (an audit
// context, a pattern) keeps its proto shape, which is the shape the use cases take.
//
// A handler writes a field itself only where the use case takes something else than the wire
// value (an empty string as "not set", an enum string narrowed, an actor defaulted), beside the
// spread, with a comment saying why.

/** `organization_id` -> `organizationId`. */
export type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

/** `sessionsEnded` -> `sessions_ended`. */
export type CamelToSnake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${CamelToSnake<Tail>}`
  : S;

/** A proto request's fields under their camelCase names: the command a use case takes. */
export type Command<T> = { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: T[K] };

/** A use case's result's fields under their snake_case names: the reply message's. */
export type Reply<T> = { [K in keyof T as K extends string ? CamelToSnake<K> : K]: T[K] };

function renamed(source: object, rename: (key: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) out[rename(key)] = value;
  return out;
}

const toCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A proto request as its use case's command: every field, renamed to camelCase, values as they
 * are. proto3 writes an unset string as "": a field named in `unsetWhenEmpty` is left out of the
 * command when empty (or 0, false), for a use case that reads an absent field as "not given".
 */
export function commandOf<T extends object, K extends keyof T & string = never>(
  request: T,
  unsetWhenEmpty: readonly K[] = [],
): Command<Omit<T, K>> & Partial<Command<Pick<T, K>>> {
  const unset = new Set<string>(unsetWhenEmpty);
  const present = Object.entries(request).filter(([key, value]) => !(unset.has(key) && !value));
  return renamed(Object.fromEntries(present), toCamel) as Command<Omit<T, K>> & Partial<Command<Pick<T, K>>>;
}

/** A use case's result as its reply message: every field, renamed to snake_case, values as they are. */
export function replyOf<T extends object>(result: T): Reply<T> {
  return renamed(result, toSnake) as Reply<T>;
}
