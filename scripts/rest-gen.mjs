#!/usr/bin/env node
// Generates the gateway's REST surface from the proto files (docs/contracts.md): for every proto
// file with google.api.http rules, services/gateway/src/gen/<service>.rest.ts holds
//   - the zod schemas of the messages the routes answer with (the OpenAPI document's components)
//     and of their path and query parameters (what the gateway validates),
//   - the proto -> JSON mappers of those messages,
//   - the routes: method, path, access, rate class, documented errors, and a handler that builds
//     the gRPC request from the caller's organization, the path and the query, calls the service
//     and answers with the mapped reply.
// It reads buf's descriptor set (`buf build`, JSON), with the comments: a method's or a field's
// leading comment is its description. `--check` fails when a committed file is stale (lint).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = `${root}services/gateway/src/gen`;

/**
 * buf's image of proto/ (or of another directory of proto files), as JSON: a FileDescriptorSet
 * with the comments and the custom options.
 */
export function descriptorSet(dir) {
  const json = execFileSync(`${root}node_modules/.bin/buf`, ["build", ...(dir ? [dir] : []), "-o", "-#format=json"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(json.toString("utf8"));
}

const HTTP = "[google.api.http]";
const ROUTE = "[verdict.api.v1.route]";
const SCHEMA = "[verdict.api.v1.schema]";
const FIELD = "[verdict.api.v1.field]";
const SERVICE = "[verdict.api.v1.service]";
const VERBS = ["get", "post", "put", "patch", "delete"];

const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
const str = (s) => JSON.stringify(s);
/** A comment as one line of description. */
const describe = (comment) =>
  comment
    ?.split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ") || undefined;

/**
 * `not_blank`: a character that String.prototype.trim keeps. The class lists what trim removes
 * (ECMAScript's WhiteSpace and LineTerminator), so JavaScript and the OpenAPI document's readers
 * (Python's re, for one) agree on it, where `\S` differs between engines.
 */
const NOT_BLANK = "[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";

/** A pattern as the body of a regex literal: a `/` outside a character class is escaped. */
function regexBody(pattern) {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      out += c + (pattern[++i] ?? "");
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    out += c === "/" && !inClass ? "\\/" : c;
  }
  return out;
}

/** One proto file's messages and services, with their comments, by full name. */
function indexFile(file) {
  const comments = new Map();
  for (const loc of file.sourceCodeInfo?.location ?? []) {
    if (loc.leadingComments && loc.path) comments.set(loc.path.join("."), loc.leadingComments);
  }
  const messages = new Map();
  const walk = (list, prefix, path, tsPrefix) => {
    list?.forEach((m, i) => {
      const p = `${path}.${i}`;
      const full = `${prefix}.${m.name}`;
      const ts = tsPrefix ? `${tsPrefix}_${m.name}` : m.name;
      messages.set(full, {
        ...m,
        full,
        ts,
        comment: describe(comments.get(p)),
        fields: (m.field ?? []).map((f, j) => ({ ...f, comment: describe(comments.get(`${p}.2.${j}`)) })),
      });
      walk(m.nestedType, full, `${p}.3`, ts);
    });
  };
  walk(file.messageType, `.${file.package}`, "4");
  const services = (file.service ?? []).map((s, i) => ({
    ...s,
    methods: (s.method ?? []).map((m, j) => ({ ...m, comment: describe(comments.get(`6.${i}.2.${j}`)) })),
  }));
  return { messages, services };
}

const STRUCT = ".google.protobuf.Struct";
/** Who asks, for the audit event a change records: the gateway fills it, the client never sends it. */
const AUDIT = ".verdict.audit.v1.AuditContext";
const rulesOf = (f) => f.options?.[FIELD] ?? {};
const required = (f) => (f.options?.["[google.api.field_behavior]"] ?? []).includes("REQUIRED");
/**
 * A field's name in JSON: the proto field's, the name the REST contract gives it, or the name of
 * the absolute URL a path is answered as.
 */
const jsonName = (f) => rulesOf(f).publicUrl || rulesOf(f).restName || f.name;
/**
 * What the gateway fills a `from_caller` field with, from the authenticated request: who acts
 * (an identity Actor), the acting member's user id, the calling key's id.
 */
const FROM_CALLER = {
  actor: "actorOf(principal!, clientIp)",
  user_id: "actingUserId(principal!)",
  key_id: "principal!.keyId",
};
const fromCaller = (f) => {
  const from = rulesOf(f).fromCaller;
  if (from && !FROM_CALLER[from])
    throw new Error(`${f.name}: from_caller ${from} is not one of ${Object.keys(FROM_CALLER)}`);
  return from;
};
/**
 * The fields of a message that the REST shape has (not the `internal` ones, nor the audit
 * context, nor what the gateway fills from the caller).
 */
const restFields = (m) => m.fields.filter((f) => !rulesOf(f).internal && f.typeName !== AUDIT && !fromCaller(f));
const auditField = (m) => m.fields.find((f) => f.typeName === AUDIT);

/**
 * The zod expression of one field's JSON value: in an answer (io "output"), a request body
 * ("body"), the query ("query") or the path ("path").
 */
function fieldSchema(f, ctx, io) {
  const rules = rulesOf(f);
  if (rules.unwrap) return fieldSchema(unwrapped(f, ctx), ctx, io);
  let base;
  let element;
  if (f.type === "TYPE_MESSAGE" && f.typeName === STRUCT)
    element = `struct(${str(f.name)}${rules.maxDepth !== undefined ? `, ${rules.maxDepth}` : ""})`;
  else if (f.type === "TYPE_MESSAGE") element = ctx.schemaName(f.typeName);
  else if (f.type === "TYPE_BOOL") element = io === "query" ? "BOOL_QUERY" : "z.boolean()";
  else if (/INT|FIXED/.test(f.type)) {
    element = io === "query" ? "z.coerce.number().int()" : "z.number().int()";
    if (rules.min !== undefined) element += `.min(${Number(rules.min)})`;
    if (rules.max !== undefined) element += `.max(${Number(rules.max)})`;
  } else if (f.type === "TYPE_DOUBLE" || f.type === "TYPE_FLOAT") element = "z.number()";
  else if (f.type === "TYPE_STRING") {
    if (rules.enum?.length) element = `z.enum(${str(rules.enum)})`;
    else if (rules.format === "date") element = "ISO_OR_DATE";
    else {
      element = rules.format === "uri" ? "z.url()" : "z.string()";
      if (rules.minLen !== undefined) element += `.min(${rules.minLen})`;
      if (rules.maxLen !== undefined) element += `.max(${rules.maxLen})`;
      if (rules.pattern && rules.notBlank) throw new Error(`${f.name}: not_blank is a pattern; give one or the other`);
      if (rules.pattern)
        element += `.regex(/${regexBody(rules.pattern)}/${rules.patternMessage ? `, { message: ${str(rules.patternMessage)} }` : ""})`;
      if (rules.notBlank) element += `.regex(/${NOT_BLANK}/, { message: ${str(`${f.name} must not be blank`)} })`;
      if (rules.maxBytes !== undefined) element = `maxBytes(${element}, ${str(f.name)}, ${rules.maxBytes})`;
      const meta = {
        ...(rules.format === "date-time" ? { format: "date-time" } : {}),
        ...(rules.examples?.length ? { examples: rules.examples } : {}),
      };
      if (Object.keys(meta).length) element += `.meta(${str(meta)})`;
    }
  } else throw new Error(`${f.name}: type ${f.type} has no JSON rule in rest-gen yet`);
  base = f.label === "LABEL_REPEATED" ? `z.array(${element})` : element;
  if (f.label === "LABEL_REPEATED") {
    if (rules.minItems !== undefined) base += `.min(${rules.minItems})`;
    if (rules.maxItems !== undefined) base += `.max(${rules.maxItems})`;
  }
  if (io === "output") {
    if (rules.omitWhenEmpty) base += ".optional()";
    else if ((f.proto3Optional && !answeredDefault(f)) || rules.nullWhenEmpty) base += ".nullable()";
  } else if (rules.default !== undefined) {
    base += `.default(${defaultValue(f)})`;
  } else if (!required(f)) base += ".optional()";
  if (f.comment) base += `.meta({ description: ${str(f.comment)} })`;
  return base;
}

/**
 * An `unwrap` field as the list its message holds: that list's rules, the outer field's name,
 * comment and presence.
 */
function unwrapped(f, ctx) {
  const inner = ctx.message(f.typeName).fields;
  if (inner.length !== 1 || inner[0].label !== "LABEL_REPEATED")
    throw new Error(`${f.name}: unwrap needs a message holding one repeated field`);
  return {
    ...inner[0],
    name: f.name,
    comment: f.comment ?? inner[0].comment,
    proto3Optional: f.proto3Optional,
    options: { ...inner[0].options, "[google.api.field_behavior]": f.options?.["[google.api.field_behavior]"] },
    unwrapped: inner[0].name,
  };
}

/** A field's `default` as a TypeScript value. */
const defaultValue = (f) =>
  f.type === "TYPE_STRING" && f.label !== "LABEL_REPEATED" ? str(rulesOf(f).default) : rulesOf(f).default;
/** A proto3 `optional` field with a `default` answers that default when unset, rather than null. */
const answeredDefault = (f) => f.proto3Optional && rulesOf(f).default !== undefined;

/** The TypeScript expression of one field's JSON value, from the proto message `m`. */
function fieldJson(f, ctx) {
  const rules = rulesOf(f);
  const v = `m.${f.name}`;
  if (rules.publicUrl) return `publicUrl(apiBaseUrl, ${v})`;
  if (rules.unwrap) return `${v}?.${unwrapped(f, ctx).unwrapped}${f.proto3Optional ? " ?? null" : " ?? []"}`;
  if (f.type === "TYPE_MESSAGE" && f.typeName === STRUCT) return `${v} ?? {}`;
  if (f.type === "TYPE_MESSAGE") {
    const map = ctx.mapperName(f.typeName);
    const base = ctx.needsBase(f.typeName) ? ", apiBaseUrl" : "";
    if (f.label === "LABEL_REPEATED") return base ? `${v}.map((x) => ${map}(x${base}))` : `${v}.map(${map})`;
    return `${map}(${v} ?? ${ctx.protoNs}.${ctx.message(f.typeName).ts}.fromPartial({})${base})`;
  }
  let out = v;
  if (rules.enum?.length)
    out = `${v} as ${f.label === "LABEL_REPEATED" ? `(${rules.enum.map(str).join(" | ")})[]` : rules.enum.map(str).join(" | ")}`;
  if (rules.nullWhenEmpty) return `${v} || null`;
  if (answeredDefault(f)) return `${v} ?? ${defaultValue(f)}`;
  if (f.proto3Optional) return `${v} ?? null`;
  return out;
}

/**
 * A message both answered and taken in a request has one schema, its request form: that is only
 * sound when the two forms agree, so a field whose answer and request differ (null or left out
 * when unset, a default, optional in a request) needs a message of its own on one side.
 */
function oneFormOnly(msg) {
  for (const f of restFields(msg)) {
    const rules = rulesOf(f);
    const differs =
      f.proto3Optional || rules.nullWhenEmpty || rules.omitWhenEmpty || rules.default !== undefined || !required(f);
    if (differs)
      throw new Error(
        `${msg.full}: answered and taken in a request, but its field ${f.name} differs between the two: give one side a message of its own`,
      );
  }
}

/** A path variable's name in the REST path: its field's `rest_name` (`{user_id}` as `:member_id`), or the field's. */
const pathName = (r, v) => {
  const f = r.input.fields.find((x) => x.name === v);
  if (!f) throw new Error(`${r.m.name}: the path names ${v}, which is not a field of ${r.input.name}`);
  return jsonName(f);
};

function generate(file) {
  const { messages, services } = indexFile(file);
  const annotated = services.flatMap((s) => s.methods.filter((m) => m.options?.[HTTP]).map((m) => ({ s, m })));
  if (!annotated.length) return undefined;
  const service = file.package.split(".")[1];
  const protoNs = `${service}V1`;
  const ctx = {
    protoNs,
    message: (name) => {
      const m = messages.get(name);
      if (!m) throw new Error(`${name}: only messages of the same file can be answered for now`);
      return m;
    },
    schemaName: (name) => `${ctx.message(name).ts}Schema`,
    mapperName: (name) => `${lowerFirst(ctx.message(name).ts)}Json`,
    /** Whether a message's JSON holds an absolute URL (public_url), directly or in a message it holds. */
    needsBase: (name) =>
      restFields(ctx.message(name)).some(
        (f) =>
          rulesOf(f).publicUrl ||
          (f.type === "TYPE_MESSAGE" && f.typeName !== STRUCT && !rulesOf(f).unwrap && ctx.needsBase(f.typeName)),
      ),
  };
  // The service's client: `clients.<service>`, or, for a service a distributed install may leave
  // out, a function that answers 503 where it is not deployed.
  const absent = annotated[0].s.options?.[SERVICE]?.absent;
  const clientOf = absent ? `${service}Client(clients)` : `clients.${service}`;

  // The messages of answers and of request bodies, each after the messages it holds.
  const order = [];
  const sides = new Map();
  const pathFields = new Map();
  const visit = (name, side) => {
    const m = ctx.message(name);
    const seen = sides.get(m) ?? new Set();
    if (seen.has(side)) return;
    seen.add(side);
    sides.set(m, seen);
    for (const f of restFields(m)) {
      if (f.type !== "TYPE_MESSAGE" || f.typeName === STRUCT || rulesOf(f).unwrap) continue;
      if (rulesOf(f).flatten && side !== "output") throw new Error(`${f.name}: flatten is for answers only`);
      if (rulesOf(f).publicUrl && side !== "output") throw new Error(`${f.name}: public_url is for answers only`);
      visit(f.typeName, side);
    }
    if (!order.includes(m)) order.push(m);
  };
  const routes = annotated.map(({ m }) => {
    const rule = m.options[HTTP];
    const verb = VERBS.find((v) => rule[v]);
    const path = rule[verb];
    const output = ctx.message(m.outputType);
    const input = ctx.message(m.inputType);
    let answer = output;
    if (rule.responseBody) {
      const f = output.fields.find((x) => x.name === rule.responseBody);
      answer = ctx.message(f.typeName);
    }
    const noContent = answer.fields.length === 0;
    if (!noContent) visit(answer.full, "output");
    const vars = [...path.matchAll(/\{([a-z_]+)\}/g)].map((x) => x[1]);
    const rest = restFields(input).filter((f) => f.name !== "organization_id" && !vars.includes(f.name));
    if (rule.body && rule.body !== "*") throw new Error(`${m.name}: only body "*" (the whole request) is generated`);
    const body = rule.body === "*" && rest.length ? input : undefined;
    if (body) {
      visit(input.full, "body");
      // The path names these fields: the body does not carry them.
      pathFields.set(input, vars);
    }
    return { m, rule, verb, path, input, output, answer, noContent, vars, rest, body };
  });
  for (const [m, seen] of sides) if (seen.size === 2) oneFormOnly(m);

  const lines = [];
  const emit = (s = "") => lines.push(s);
  emit(
    `// Generated by scripts/rest-gen.mjs from proto/${file.name}. Do not edit: change the proto and run \`pnpm proto:gen\`.`,
  );
  emit(`import { z } from "zod";`);
  emit(`import { ${protoNs} } from "@verdict/proto";`);
  emit(`import { route, type Route } from "../http/route.js";`);
  if (absent) emit(`import type { Clients } from "../clients.js";`);
  const importsAt = lines.length;
  if (absent) {
    emit();
    emit(`/** The ${service} service's client, or 503 where it is not deployed (no address for it). */`);
    emit(`export function ${service}Client(clients: Clients): NonNullable<Clients[${str(service)}]> {`);
    emit(`  return deployed(clients.${service}, ${str(absent)});`);
    emit("}");
  }
  emit();
  emit("// ---------- what the routes answer and take ----------");
  for (const msg of order) {
    const side = sides.get(msg);
    const inRequest = side.has("body");
    const opts = msg.options?.[SCHEMA] ?? {};
    const fields = [];
    const json = [];
    const paging = opts.paginated ? msg.fields.filter((f) => ["next_cursor", "has_more"].includes(f.name)) : [];
    const own = inRequest
      ? restFields(msg).filter((f) => f.name !== "organization_id" && !(pathFields.get(msg) ?? []).includes(f.name))
      : restFields(msg);
    for (const f of own) {
      if (paging.includes(f)) continue;
      const rules = rulesOf(f);
      if (rules.publicUrl && inRequest) throw new Error(`${f.name}: public_url is for answers only`);
      if (rules.restName && inRequest) throw new Error(`${f.name}: rest_name is for answers only`);
      if (rules.flatten) {
        const inner = ctx.message(f.typeName);
        const base = ctx.needsBase(f.typeName) ? ", apiBaseUrl" : "";
        fields.push(`  ...${ctx.schemaName(f.typeName)}.shape,`);
        json.push(
          `    ...${ctx.mapperName(f.typeName)}(m.${f.name} ?? ${protoNs}.${inner.ts}.fromPartial({})${base}),`,
        );
        continue;
      }
      fields.push(`  ${jsonName(f)}: ${fieldSchema(f, ctx, inRequest ? "body" : "output")},`);
      if (rules.omitWhenEmpty) {
        // An enum's proto string is one of its values (the service fills it from the same list).
        const value = rules.enum?.length ? `m.${f.name} as ${rules.enum.map(str).join(" | ")}` : `m.${f.name}`;
        json.push(`    ...(m.${f.name} ? { ${f.name}: ${value} } : {}),`);
      } else json.push(`    ${jsonName(f)}: ${fieldJson(f, ctx)},`);
    }
    if (paging.length === 2) {
      fields.push("  pagination: z.object({ next_cursor: z.string().nullable(), has_more: z.boolean() }),");
      json.push("    pagination: { next_cursor: m.next_cursor ?? null, has_more: m.has_more },");
    }
    const meta = {
      ...(opts.component ? { id: opts.component } : {}),
      ...(msg.comment ? { description: msg.comment } : {}),
    };
    const name = `${msg.ts}Schema`;
    emit();
    emit(`export const ${name} = z`);
    emit(`  .object({`);
    for (const l of fields) emit(`  ${l}`);
    emit(`  })${inRequest ? ".strict()" : ""}${Object.keys(meta).length ? `\n  .meta(${str(meta)})` : ""};`);
    if (!side.has("output")) continue;
    emit();
    const base = ctx.needsBase(msg.full) ? ", apiBaseUrl: string" : "";
    emit(`export function ${lowerFirst(msg.ts)}Json(m: ${protoNs}.${msg.ts}${base}): z.output<typeof ${name}> {`);
    emit("  return {");
    for (const l of json) emit(l);
    emit("  };");
    emit("}");
  }

  emit();
  emit("// ---------- path and query parameters ----------");
  for (const r of routes) {
    r.params = r.vars.length ? `${r.m.name}Params` : undefined;
    r.query = r.rest.length && !r.body ? `${r.m.name}Query` : undefined;
    if (r.params) {
      emit();
      emit(`export const ${r.params} = z.object({`);
      for (const v of r.vars)
        emit(
          `  ${pathName(r, v)}: ${fieldSchema({ ...r.input.fields.find((f) => f.name === v), comment: undefined }, ctx, "path").replace(/\.optional\(\)$/, "")},`,
        );
      emit("});");
    }
    if (r.query) {
      emit();
      emit(`export const ${r.query} = z`);
      emit("  .object({");
      for (const f of r.rest) emit(`    ${f.name}: ${fieldSchema(f, ctx, "query")},`);
      emit("  })");
      emit("  .strict();");
    }
  }

  emit();
  emit("// ---------- the routes ----------");
  emit();
  // A path with variables after the literal paths it could swallow (/stats before /{id}).
  const sorted = [...routes].sort((a, b) => a.vars.length - b.vars.length);
  emit(`export const ${service}GeneratedRoutes: Route[] = [`);
  for (const r of sorted) {
    const opts = r.m.options[ROUTE] ?? {};
    const dates = r.query ? r.rest.filter((f) => rulesOf(f).format === "date").map((f) => f.name) : [];
    const structs = r.body ? r.rest.filter((f) => f.typeName === STRUCT).map((f) => f.name) : [];
    const args = [
      ...(r.params ? ["params"] : []),
      ...(r.query ? ["query"] : []),
      ...(r.body ? ["body"] : []),
      ...(structs.length ? ["rawBody"] : []),
      ...(r.input.fields.some((f) => f.name === "organization_id" || fromCaller(f)) || auditField(r.input)
        ? ["principal"]
        : []),
      ...(auditField(r.input) ? ["requestId"] : []),
      ...(auditField(r.input) || r.input.fields.some((f) => fromCaller(f) === "actor") ? ["clientIp"] : []),
      "clients",
      ...(!r.noContent && ctx.needsBase(r.answer.full) ? ["apiBaseUrl"] : []),
    ];
    emit("  route({");
    emit(`    method: ${str(r.verb)},`);
    emit(`    path: ${str(r.path.replace(/\{([a-z_]+)\}/g, (_, v) => `:${pathName(r, v)}`))},`);
    emit(`    operationId: ${str(opts.operationId || lowerFirst(r.m.name))},`);
    emit(`    summary: ${str(r.m.comment ?? r.m.name)},`);
    emit(`    tag: ${str(opts.tag ?? service)},`);
    emit(`    access: ${opts.scope ? `{ kind: "scope", scope: ${str(opts.scope)} }` : `{ kind: "authenticated" }`},`);
    if (opts.rateClass) emit(`    rateClass: ${str(opts.rateClass)},`);
    if (r.params) emit(`    params: ${r.params},`);
    if (r.query) emit(`    query: ${r.query},`);
    if (r.body) emit(`    body: ${r.input.ts}Schema,`);
    if (opts.errors?.length) emit(`    errors: ${str(opts.errors)},`);
    if (opts.errorNotes?.length)
      emit(`    errorNotes: { ${opts.errorNotes.map((n) => `${n.status}: ${str(n.note)}`).join(", ")} },`);
    const status = r.noContent ? 204 : (opts.status ?? 200);
    emit(
      `    responses: { ${status}: { description: ${str(opts.response ?? "OK")}${r.noContent ? "" : `, schema: ${r.answer.ts}Schema`} } },`,
    );
    emit(`    handler: async ({ ${args.join(", ")} }) => {`);
    if (dates.length) emit(`      refuseImpossibleDays(query);`);
    for (const s of structs) emit(`      refuseProtoKey(rawBody, ${str(s)});`);
    const fields = restFields(r.input).map((f) => {
      if (f.name === "organization_id") return "organization_id: principal!.organizationId";
      if (r.vars.includes(f.name)) return `${f.name}: params.${pathName(r, f.name)}`;
      if (dates.includes(f.name)) return `${f.name}: dateTime(query.${f.name})`;
      const from = `${r.body ? "body" : "query"}.${f.name}`;
      if (rulesOf(f).unwrap)
        return `${f.name}: ${from} === undefined ? undefined : { ${unwrapped(f, ctx).unwrapped}: ${from} }`;
      return `${f.name}: ${from}`;
    });
    const audit = auditField(r.input);
    if (audit) fields.push(`${audit.name}: auditContext(principal!, requestId, clientIp)`);
    for (const f of r.input.fields.filter(fromCaller)) fields.push(`${f.name}: ${FROM_CALLER[fromCaller(f)]}`);
    // A body or a query leaves out what it may: the message's defaults fill it (fromPartial).
    const request =
      r.body || r.query ? `${protoNs}.${r.input.ts}.fromPartial({ ${fields.join(", ")} })` : `{ ${fields.join(", ")} }`;
    const call = `${clientOf}.${lowerFirst(r.m.name)}(${request})`;
    if (r.noContent) {
      emit(`      await ${call};`);
      emit("      return { status: 204 };");
    } else {
      emit(`      const res = await ${call};`);
      const base = ctx.needsBase(r.answer.full) ? ", apiBaseUrl" : "";
      const body = r.rule.responseBody
        ? `${lowerFirst(r.answer.ts)}Json(res.${r.rule.responseBody}!${base})`
        : `${lowerFirst(r.answer.ts)}Json(res${base})`;
      emit(`      return { status: ${status}, body: ${body} };`);
    }
    emit("    },");
    emit("  }),");
  }
  emit("];");
  const text = lines.join("\n");
  const code = text.replace(/^\s*\/\/.*$/gm, "");
  const helpers = [
    ...["BOOL_QUERY", "ISO_OR_DATE"].filter((h) => new RegExp(`\\b${h}\\b`).test(code)),
    ...["dateTime", "deployed", "maxBytes", "publicUrl", "refuseImpossibleDays", "refuseProtoKey", "struct"].filter(
      (h) => new RegExp(`(?<![\\w.])${h}\\(`).test(code),
    ),
  ];
  if (helpers.length) lines.splice(importsAt, 0, `import { ${helpers.join(", ")} } from "../http/restTypes.js";`);
  const authHelpers = ["actingUserId", "actorOf", "auditContext"].filter((h) =>
    new RegExp(`(?<![\\w.])${h}\\(`).test(code),
  );
  if (authHelpers.length) lines.splice(importsAt, 0, `import { ${authHelpers.join(", ")} } from "../http/auth.js";`);
  return { name: `${service}.rest.ts`, text: lines.join("\n") + "\n" };
}

/** Every generated file, by name. */
export function generateAll(set = descriptorSet()) {
  const out = new Map();
  for (const file of set.file) {
    if (!file.name.startsWith("verdict/")) continue;
    const g = generate(file);
    if (g) out.set(g.name, g.text);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = generateAll();
  // prettier formats them as it formats the sources, so that the committed text is what lint sees.
  const prettier = await import("prettier");
  const config = (await prettier.resolveConfig(`${outDir}/x.ts`)) ?? {};
  const formatted = new Map();
  for (const [name, text] of files) {
    const options = { ...config, filepath: `${outDir}/${name}` };
    // Twice: prettier's output on generated text can still change once more (a long string
    // argument first broken onto its own line), and lint checks the settled form.
    formatted.set(name, await prettier.format(await prettier.format(text, options), options));
  }
  if (process.argv.includes("--check")) {
    let stale = false;
    const present = (() => {
      try {
        return readdirSync(outDir);
      } catch {
        return [];
      }
    })();
    for (const name of new Set([...present, ...formatted.keys()])) {
      let current;
      try {
        current = readFileSync(`${outDir}/${name}`, "utf8");
      } catch {
        current = undefined;
      }
      if (current !== formatted.get(name)) {
        process.stderr.write(`services/gateway/src/gen/${name} is stale: run 'pnpm proto:gen'\n`);
        stale = true;
      }
    }
    process.exit(stale ? 1 : 0);
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of formatted) writeFileSync(`${outDir}/${name}`, text);
}
