// The API's operations as the generated OpenAPI types describe them (gen/openapi.ts, made by
// scripts/sdk-gen.mjs from the document the gateway serves): what each path and method takes and
// answers, so that no call of the client states a type of its own.
import type { paths } from "./gen/openapi.js";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** The API's paths that answer this method. */
export type PathWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];

/** The operation at a path and method. */
export type Operation<P extends keyof paths, M extends HttpMethod> = paths[P][M & keyof paths[P]];

type Json<R> = R extends { content: { "application/json": infer J } } ? J : void;

/** What the operation answers on success: the JSON of its 2xx response, nothing for a 204. */
export type Answer<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? Json<R[S]> : S extends 204 ? void : never }[keyof R]
  : never;

/** The operation's JSON request body. */
export type RequestJson<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** The operation's path parameters (`{evaluation_id}`, ...). */
export type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;

/** Fills a path's `{name}` parameters, each encoded. */
export function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
