// Which methods each path answers (405 and its Allow header) and the names of its parameters
// (to name the one a malformed path segment stands for): the route table's paths, and the
// documented paths served outside it (the OAuth server, its pages, SSO's browser legs).
import type { Route } from "../route.js";

export interface PathTemplate {
  path: string;
  re: RegExp;
  methods: Set<string>;
  /** Per segment, the parameter's name or undefined for a literal segment. */
  params: (string | undefined)[];
}

/**
 * The route table's paths. A path both a literal route and a templated one match
 * (`/v1/policies/pattern-tests`, `/v1/policies/:policy_id`) belongs to the literal one: fewest
 * parameters first.
 */
export function routeTemplates(routes: readonly Route[]): PathTemplate[] {
  const templates = new Map<string, PathTemplate>();
  for (const r of routes) {
    const segments = r.path.split("/");
    const t = templates.get(r.path) ?? {
      path: r.path,
      re: new RegExp(`^${r.path.replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`),
      methods: new Set<string>(),
      params: segments.map((seg) => (seg.startsWith(":") ? seg.slice(1) : undefined)),
    };
    t.methods.add(r.method.toUpperCase());
    if (r.method === "get") t.methods.add("HEAD");
    templates.set(r.path, t);
  }
  return [...templates.values()].sort((a, b) => a.params.filter(Boolean).length - b.params.filter(Boolean).length);
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch"]);

/** The documented paths that are not in the route table, each with the methods it answers. */
export function documentedPageTemplates(openapi: Record<string, unknown>, routes: readonly Route[]): PathTemplate[] {
  const inTable = new Set(routes.map((r) => r.path.replace(/:([A-Za-z_]+)/g, "{$1}")));
  const paths = (openapi.paths ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .filter(([path]) => !inTable.has(path))
    .map(([path, item]) => {
      const methods = new Set(
        Object.keys(item)
          .filter((m) => HTTP_METHODS.has(m))
          .map((m) => m.toUpperCase()),
      );
      if (methods.has("GET")) methods.add("HEAD");
      const pattern = path
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      return { path, re: new RegExp(`^${pattern}/?$`), methods, params: [] };
    });
}
