// One request to /scim/v2, start to finish: authenticate the token, route, answer a SCIM
// response. Every failure becomes a SCIM error body (RFC 7644 §3.12) with its status; nothing
// here answers a /v1-style error or a 500 for bad input.
import { AppError } from "@verdict/kit";
import { ifMatchHolds, listResponse, pageOf, resourceTypes, serviceProviderConfig } from "../../domain/scim.js";
import { ScimError, scimErrors } from "../../domain/scimError.js";
import { getCI, matches, parseFilter, type Filter } from "../../domain/scimFilter.js";
import { storeQuery } from "../../domain/scimQuery.js";
import {
  caseExact,
  GROUP_RESOURCE,
  project,
  schemaResources,
  USER_RESOURCE,
  type ResourceSchema,
} from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimList, ScimUserRecord } from "../../repos/scimRepo.js";
import type { ScimCaller } from "./access.js";
import { authenticateScim } from "./authenticateScim.js";
import { createGroup } from "./createGroup.js";
import { createUser } from "./createUser.js";
import { deleteGroup } from "./deleteGroup.js";
import { deleteUser } from "./deleteUser.js";
import { findGroup } from "./findGroup.js";
import { findUser } from "./findUser.js";
import { groupView } from "./groupResource.js";
import { patchGroup } from "./patchGroup.js";
import { patchUser } from "./patchUser.js";
import { replaceGroup } from "./replaceGroup.js";
import { replaceUser } from "./replaceUser.js";
import { userView } from "./userResource.js";

export interface ScimHttpRequest {
  token: string;
  method: string;
  path: string;
  query: Record<string, string>;
  bodyJson: string;
  ifMatch: string;
  ifNoneMatch: string;
  baseUrl: string;
  clientIp: string;
}

export interface ScimHttpResponse {
  status: number;
  body?: unknown;
  etag?: string;
  location?: string;
}

type Obj = Record<string, unknown>;

interface ListParams {
  filter?: string;
  startIndex?: unknown;
  count?: unknown;
  attributes?: string;
  excludedAttributes?: string;
}

function parseBody(json: string): unknown {
  if (!json.trim()) throw scimErrors.invalidSyntax("The request needs a JSON body");
  try {
    return JSON.parse(json);
  } catch {
    throw scimErrors.invalidSyntax("The body is not valid JSON");
  }
}

function only(method: string, allowed: string[]): void {
  if (!allowed.includes(method))
    throw scimErrors.methodNotAllowed(`${method} is not allowed here; allowed: ${allowed.join(", ")}`);
}

function filterOf(p: ListParams): Filter | undefined {
  return p.filter !== undefined && p.filter.trim() ? parseFilter(p.filter) : undefined;
}

function matcher(rs: ResourceSchema, filter: Filter | undefined): (v: Obj) => boolean {
  if (!filter) return () => true;
  const ctx = { coreSchema: rs.core, caseExact: (path: Parameters<typeof caseExact>[1]) => caseExact(rs, path) };
  return (v) => matches(v, filter, ctx);
}

/** A list of views already in hand, filtered and paged here (the root /.search across types). */
function listOf(rs: ResourceSchema, views: Obj[], p: ListParams): Obj {
  const hits = views.filter(matcher(rs, filterOf(p)));
  const { startIndex, count } = pageOf(p.startIndex, p.count);
  const page = hits.slice(startIndex - 1, startIndex - 1 + count);
  return listResponse(
    page.map((v) => project(rs, v, p.attributes, p.excludedAttributes)),
    hits.length,
    startIndex,
  );
}

/**
 * One page of an organization's Users or Groups for a filter. What the store can answer through
 * its indexes (domain/scimQuery.ts) it answers: a whole filter of indexed equalities (or none)
 * is counted and paged there (count, skip, limit), reading one page of records; otherwise the
 * store narrows the candidates by the indexed part and the rest of the filter runs here.
 */
async function listPage<R>(
  list: (where: Record<string, string>) => ScimList<R>,
  kind: "User" | "Group",
  rs: ResourceSchema,
  p: ListParams,
  views: (records: R[]) => Promise<Obj[]>,
): Promise<Obj> {
  const filter = filterOf(p);
  const { startIndex, count } = pageOf(p.startIndex, p.count);
  const q = storeQuery(kind, rs, filter);
  const answer = (page: Obj[], total: number) =>
    listResponse(
      page.map((v) => project(rs, v, p.attributes, p.excludedAttributes)),
      total,
      startIndex,
    );
  if (q.impossible) return answer([], 0);
  const records = list(q.where);
  if (q.exact) {
    const total = await records.count();
    const page = count === 0 || startIndex > total ? [] : await records.page(startIndex - 1, count);
    return answer(await views(page), total);
  }
  const hits = (await views(await records.all())).filter(matcher(rs, filter));
  return answer(hits.slice(startIndex - 1, startIndex - 1 + count), hits.length);
}

function searchParams(body: unknown): ListParams {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw scimErrors.invalidSyntax("A search is a JSON object");
  const str = (k: string) => {
    const v = getCI(body, k);
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v)) return v.map(String).join(",");
    if (typeof v !== "string") throw scimErrors.invalidValue(`${k} must be a string`);
    return v;
  };
  return {
    filter: str("filter"),
    startIndex: getCI(body, "startIndex"),
    count: getCI(body, "count"),
    attributes: str("attributes"),
    excludedAttributes: str("excludedAttributes"),
  };
}

/** Views of these users, each with the groups it belongs to (an organization has few groups). */
async function usersToViews(deps: IdentityDeps, caller: ScimCaller, users: ScimUserRecord[]): Promise<Obj[]> {
  if (users.length === 0) return [];
  const groups = await deps.scim.groupsOf(caller.organizationId);
  return users.map((u) => userView(u, groups, caller.baseUrl));
}

/** Views of these groups, reading only the users they name. */
async function groupsToViews(deps: IdentityDeps, caller: ScimCaller, groups: ScimGroupRecord[]): Promise<Obj[]> {
  const ids = [...new Set(groups.flatMap((g) => g.member_ids))];
  const users = ids.length ? await deps.scim.usersWithIds(caller.organizationId, ids) : [];
  const byId = new Map<string, ScimUserRecord>(users.map((u) => [u.scim_id, u]));
  return groups.map((g) => groupView(g, byId, caller.baseUrl));
}

async function userViews(deps: IdentityDeps, caller: ScimCaller): Promise<Obj[]> {
  return usersToViews(deps, caller, await deps.scim.usersOf(caller.organizationId));
}

async function groupViews(deps: IdentityDeps, caller: ScimCaller): Promise<Obj[]> {
  return groupsToViews(deps, caller, await deps.scim.groupsByCreation(caller.organizationId));
}

function listUsers(deps: IdentityDeps, caller: ScimCaller, p: ListParams): Promise<Obj> {
  return listPage(
    (where) => deps.scim.userList(caller.organizationId, where),
    "User",
    USER_RESOURCE,
    p,
    (r) => usersToViews(deps, caller, r),
  );
}

function listGroups(deps: IdentityDeps, caller: ScimCaller, p: ListParams): Promise<Obj> {
  return listPage(
    (where) => deps.scim.groupList(caller.organizationId, where),
    "Group",
    GROUP_RESOURCE,
    p,
    (r) => groupsToViews(deps, caller, r),
  );
}

async function oneUserView(deps: IdentityDeps, caller: ScimCaller, rec: ScimUserRecord): Promise<Obj> {
  return (await usersToViews(deps, caller, [rec]))[0]!;
}

async function oneGroupView(deps: IdentityDeps, caller: ScimCaller, id: string): Promise<Obj> {
  return (
    await groupsToViews(deps, caller, [await findGroup(deps, { organizationId: caller.organizationId, id })])
  )[0]!;
}

function resourceResponse(status: number, view: Obj, q: Record<string, string>, rs: ResourceSchema): ScimHttpResponse {
  const meta = view.meta as { version: string; location: string };
  return {
    status,
    body: project(rs, view, q.attributes, q.excludedAttributes),
    etag: meta.version,
    ...(status === 201 ? { location: meta.location } : {}),
  };
}

function versionOf(etag: string): number {
  return Number(/"(\d+)"/.exec(etag)?.[1] ?? 0);
}

async function route(deps: IdentityDeps, caller: ScimCaller, req: ScimHttpRequest): Promise<ScimHttpResponse> {
  const method = req.method.toUpperCase();
  const segments = req.path
    .split("/")
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw scimErrors.notFound("Resource", req.path);
      }
    });
  const [head, id, extra] = segments;
  const q = req.query;
  if (extra !== undefined) throw scimErrors.notFound("Resource", req.path);
  switch (head) {
    case "ServiceProviderConfig":
      only(method, ["GET"]);
      if (id) throw scimErrors.notFound("Resource", req.path);
      return { status: 200, body: serviceProviderConfig(req.baseUrl) };
    case "ResourceTypes": {
      only(method, ["GET"]);
      const all = resourceTypes(req.baseUrl);
      if (!id) return { status: 200, body: listResponse(all, all.length, 1) };
      const one = all.find((r) => r.id === id);
      if (!one) throw scimErrors.notFound("ResourceType", id);
      return { status: 200, body: one };
    }
    case "Schemas": {
      only(method, ["GET"]);
      const all = schemaResources(req.baseUrl);
      if (!id) return { status: 200, body: listResponse(all, all.length, 1) };
      const one = all.find((r) => String(r.id).toLowerCase() === id.toLowerCase());
      if (!one) throw scimErrors.notFound("Schema", id);
      return { status: 200, body: one };
    }
    case ".search":
      only(method, ["POST"]);
      if (id) throw scimErrors.notFound("Resource", req.path);
      // Both resource types: Users first, then Groups, paged together.
      return {
        status: 200,
        body: listOf(
          USER_RESOURCE,
          [...(await userViews(deps, caller)), ...(await groupViews(deps, caller))],
          searchParams(parseBody(req.bodyJson)),
        ),
      };
    case "Users":
    case "Groups": {
      const users = head === "Users";
      const rs = users ? USER_RESOURCE : GROUP_RESOURCE;
      const list = (p: ListParams) => (users ? listUsers(deps, caller, p) : listGroups(deps, caller, p));
      if (id === ".search") {
        only(method, ["POST"]);
        return { status: 200, body: await list(searchParams(parseBody(req.bodyJson))) };
      }
      if (!id) {
        only(method, ["GET", "POST"]);
        if (method === "GET") return { status: 200, body: await list(q) };
        const body = parseBody(req.bodyJson);
        if (users) {
          const rec = await createUser(deps, { caller, body });
          return resourceResponse(201, await oneUserView(deps, caller, rec), q, rs);
        }
        const g = await createGroup(deps, { caller, body });
        return resourceResponse(201, await oneGroupView(deps, caller, g.group_id), q, rs);
      }
      only(method, ["GET", "PUT", "PATCH", "DELETE"]);
      const rec = users
        ? await findUser(deps, { organizationId: caller.organizationId, id })
        : await findGroup(deps, { organizationId: caller.organizationId, id });
      if (method === "GET") {
        const view = users
          ? await oneUserView(deps, caller, rec as ScimUserRecord)
          : await oneGroupView(deps, caller, id);
        if (req.ifNoneMatch && ifMatchHolds(req.ifNoneMatch, versionOf(String((view.meta as Obj).version))))
          return { status: 304, etag: String((view.meta as Obj).version) };
        return resourceResponse(200, view, q, rs);
      }
      if (!ifMatchHolds(req.ifMatch, rec.version)) throw scimErrors.preconditionFailed();
      if (method === "DELETE") {
        if (users) await deleteUser(deps, { caller, user: rec as ScimUserRecord });
        else await deleteGroup(deps, { caller, group: rec as Awaited<ReturnType<typeof findGroup>> });
        return { status: 204 };
      }
      const body = parseBody(req.bodyJson);
      if (users) {
        const u = rec as ScimUserRecord;
        const next =
          method === "PUT"
            ? await replaceUser(deps, { caller, user: u, body })
            : await patchUser(deps, { caller, user: u, body });
        return resourceResponse(200, await oneUserView(deps, caller, next), q, rs);
      }
      const g = rec as Awaited<ReturnType<typeof findGroup>>;
      const next =
        method === "PUT"
          ? await replaceGroup(deps, { caller, group: g, body })
          : await patchGroup(deps, { caller, group: g, body });
      return resourceResponse(200, await oneGroupView(deps, caller, next.group_id), q, rs);
    }
    default:
      throw scimErrors.notFound("Resource", req.path || "/");
  }
}

export async function handleScim(deps: IdentityDeps, req: ScimHttpRequest): Promise<ScimHttpResponse> {
  try {
    const { record, org } = await authenticateScim(deps, { token: req.token });
    const caller: ScimCaller = {
      organizationId: org.id,
      tokenId: record.id,
      actor: { type: "system", id: `scim:${record.id}`, ip: req.clientIp },
      baseUrl: req.baseUrl,
    };
    return await route(deps, caller, req);
  } catch (err) {
    if (err instanceof ScimError) return { status: err.status, body: err.toBody() };
    if (err instanceof AppError && err.httpStatus < 500)
      return { status: err.httpStatus, body: new ScimError(err.httpStatus, undefined, err.message).toBody() };
    deps.logger.error({ err }, "SCIM request failed");
    return { status: 500, body: new ScimError(500, undefined, "Internal error").toBody() };
  }
}
