// verdict members, audit, oauth-clients, sso, scim-tokens: who may use the organization, how
// they sign in, and what they did. Secrets (invitation links, client secrets, SCIM tokens) are
// printed once, at creation, to stdout only: never in notes or errors.
import { InvalidArgumentError, type Command } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { API_SCOPES, parseAuditExport, verifyAuditExport, type ApiScope, type PutSsoConnection } from "@verdict/sdk";
import type { Context } from "../context.js";
import { CliError, EXIT } from "../errors.js";
import { bool, collect, jsonOf, positiveInt, readText, secretFromStdin } from "./shared.js";

const ROLES = ["owner", "admin", "member", "viewer"] as const;
type Role = (typeof ROLES)[number];
const EXPIRATIONS = ["30m", "24h", "7d", "90d", "never"] as const;

function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value))
      throw new InvalidArgumentError(`must be one of ${allowed.join(", ")}`);
    return value as T;
  };
}

function collectOneOf<T extends string>(allowed: readonly T[]) {
  const check = oneOf(allowed);
  return (value: string, previous: T[] = []): T[] => [...previous, check(value)];
}

export function peopleCommands(program: Command, ctx: Context): void {
  membersCommand(program, ctx);
  auditCommand(program, ctx);
  oauthClientsCommand(program, ctx);
  ssoCommand(program, ctx);
  scimTokensCommand(program, ctx);
}

function membersCommand(program: Command, ctx: Context): void {
  const members = program
    .command("members")
    .description("People of the organization and their roles (admin scope to change them)");
  members
    .command("list")
    .description("Members and pending invitations")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const { members: rows } = await ctx.client().listMembers();
      if (out.json) return out.data({ members: rows });
      out.table(
        ["ID", "EMAIL", "NAME", "ROLE", "STATUS", "MFA", "CREATED"],
        rows.map((m) => [
          m.id,
          m.email,
          m.name || null,
          m.role,
          m.status === "active" ? m.status : out.c.yellow(`invited until ${m.invitation_expires_at ?? "-"}`),
          m.mfa_enabled ? "yes" : "no",
          m.created_at,
        ]),
      );
    });
  members
    .command("invite")
    .description("Invite someone by email; the invitation link is printed once (send it to them)")
    .argument("<email>")
    .option("--role <role>", `one of ${ROLES.join(", ")}`, oneOf(ROLES), "member" as Role)
    .action(async (email: string, opts: { role: Role }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const m = await ctx.client().inviteMember({ email, role: opts.role });
      if (out.json) return out.data(m);
      out.line(`invited ${m.email} as ${m.role}: ${m.id}, until ${m.invitation_expires_at ?? "-"}`);
      out.line(`invitation link (shown once, works once; send it to ${m.email}): ${m.invitation_url}`);
    });
  members
    .command("set-role")
    .description("Change a member's role")
    .argument("<member_id>")
    .argument("<role>", `one of ${ROLES.join(", ")}`, oneOf(ROLES))
    .action(async (id: string, role: Role, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const m = await ctx.client().updateMember(id, { role });
      if (out.json) return out.data(m);
      out.line(`${m.email} (${m.id}) is now ${m.role}`);
    });
  members
    .command("reset-password")
    .description("Issue a password-reset link for a member; printed once (hand it to them)")
    .argument("<member_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const r = await ctx.client().issuePasswordReset(id);
      if (out.json) return out.data(r);
      out.line(`password-reset link (shown once, works once, until ${r.expires_at}): ${r.reset_url}`);
    });
  members
    .command("remove")
    .description("Remove a member (or withdraw an invitation); their sessions end")
    .argument("<member_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().removeMember(id);
      if (out.json) return out.data({ removed: id });
      out.line(`removed ${id}`);
    });
}

function auditCommand(program: Command, ctx: Context): void {
  const audit = program.command("audit").description("The organization's audit log (read:org)");
  audit
    .command("export")
    .description("The whole audit log as JSON Lines, oldest first (hash-chained events; see `audit verify`)")
    .option("--out <file>", "write it to this file instead of standard output")
    .action(async (opts: { out?: string }) => {
      const text = await ctx.client().exportAuditEvents();
      if (!opts.out) return void ctx.io.stdout.write(text);
      writeFileSync(resolve(ctx.io.cwd, opts.out), text);
      ctx.io.stderr.write(`saved ${parseAuditExport(text).length} events to ${opts.out}\n`);
    });
  audit
    .command("verify")
    .description(
      "Check the audit log's hash chain (the API's export, or --file): exit 1 naming the first changed, removed or reordered event",
    )
    .option("--file <file>", "check this export (from `audit export`) instead of fetching one")
    .option(
      "--head <seq:hash>",
      "the head printed by an earlier verify: the log must still contain it (detects a cut-off end)",
    )
    .action(async (opts: { file?: string; head?: string }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const text = opts.file
        ? readFileSync(resolve(ctx.io.cwd, opts.file), "utf8")
        : await ctx.client().exportAuditEvents();
      const verdict = verifyAuditExport(text, opts.head ? { knownHead: parseHead(opts.head) } : {});
      if (!verdict.ok) process.exitCode = EXIT.failed;
      if (out.json) return out.data(verdict);
      if (verdict.failure) {
        const f = verdict.failure;
        out.line(`audit log FAILED verification at event ${f.seq} (${f.id}): ${f.problem}: ${f.message}`);
        out.line(`${verdict.checked} events before it verified`);
        return;
      }
      const head = verdict.head ? `${verdict.head.seq}:${verdict.head.hash}` : "none (the log is empty)";
      out.line(`audit log verified: ${verdict.checked} events, chain intact`);
      const cp = verdict.checkpoint;
      if (cp)
        out.line(
          `from the retention checkpoint: events up to ${cp.seq} were deleted (past the organization's retention, ${cp.swept_at})`,
        );
      out.line(
        `head ${head}  (keep it; \`verdict audit verify --head ${verdict.head ? head : "SEQ:HASH"}\` later also detects a cut-off end)`,
      );
    });
  audit
    .command("list")
    .description("Audit events, newest first (follows pagination cursors up to --limit)")
    .option("--actor <id>", "only events by this user or API key (user_…, key_…)")
    .option("--type <type>", "only this event type, e.g. member.invited or signin.failed")
    .option("--target-type <type>", "only events about this kind of object, e.g. policy or webhook")
    .option("--target-id <id>", "only events about the object with this id, e.g. sql-injection or wh_…")
    .option("--since <date>", "ISO 8601 date or date-time (inclusive)")
    .option("--until <date>", "ISO 8601 date or date-time (exclusive)")
    .option("--limit <n>", "how many to show", positiveInt, 50)
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const client = ctx.client();
      const rows = [];
      const query = {
        actor: opts.actor,
        type: opts.type,
        target_type: opts.targetType,
        target_id: opts.targetId,
        since: opts.since,
        until: opts.until,
        limit: Math.min(100, opts.limit),
      };
      for await (const e of client.auditEvents(query)) {
        rows.push(e);
        if (rows.length >= opts.limit) break;
      }
      if (out.json) return out.data({ audit_events: rows });
      out.table(
        ["ID", "TIME", "TYPE", "ACTOR", "IP", "TARGET"],
        rows.map((e) => [
          e.id,
          e.occurred_at,
          e.type,
          `${e.actor.type}:${e.actor.id}`,
          e.actor.ip,
          `${e.target.type}:${e.target.id}`,
        ]),
      );
    });
}

function oauthClientsCommand(program: Command, ctx: Context): void {
  const oc = program
    .command("oauth-clients")
    .description("Applications that act for members through Verdict's OAuth 2.0 server (admin)");
  oc.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { oauth_clients } = await ctx.client().listOAuthClients();
    if (out.json) return out.data({ oauth_clients });
    out.table(
      ["CLIENT ID", "NAME", "TYPE", "SCOPES", "REDIRECT URIS", "CREATED"],
      oauth_clients.map((o) => [
        o.client_id,
        o.name,
        o.public ? "public" : "confidential",
        o.scopes.join(","),
        o.redirect_uris.join(" "),
        o.created_at,
      ]),
    );
  });
  oc.command("create")
    .description("Register an application; a confidential client's secret is printed once")
    .argument("<name>")
    .requiredOption("--redirect-uri <uri>", "exact redirect URI (repeatable): https, or http on localhost", collect)
    .requiredOption(
      "--scope <scope>",
      `the most it may ask for (repeatable): ${API_SCOPES.join(", ")}`,
      collectOneOf(API_SCOPES),
    )
    .option("--public", "a native or single-page application: no secret, PKCE required", false)
    .action(async (name: string, opts: { redirectUri: string[]; scope: ApiScope[]; public: boolean }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const o = await ctx.client().createOAuthClient({
        name,
        redirect_uris: opts.redirectUri,
        scopes: opts.scope,
        public: opts.public,
      });
      if (out.json) return out.data(o);
      out.line(`created ${o.public ? "public" : "confidential"} client ${o.client_id} (${o.name})`);
      if (o.client_secret) out.line(`client secret (shown once, store it now): ${o.client_secret}`);
      else out.line("no client secret: a public client proves itself with PKCE");
    });
  oc.command("delete")
    .description("Delete an application; its tokens stop working")
    .argument("<client_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteOAuthClient(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });
}

function ssoCommand(program: Command, ctx: Context): void {
  const sso = program
    .command("sso")
    .description("Single sign-on: the organization's OIDC or SAML identity provider (admin)");
  sso
    .command("show")
    .description("The connection, its domains and what to register at the identity provider")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const s = await ctx.client().getSsoConnection();
      if (out.json) return out.data(s);
      out.record([
        ["type", s.type],
        ["issuer", s.issuer],
        ["client_id", s.client_id],
        ["client_secret", s.client_secret_set ? "set (never shown)" : "not set"],
        ["idp_entity_id", s.idp_entity_id],
        ["idp_sso_url", s.idp_sso_url],
        ["idp_metadata_url", s.idp_metadata_url],
        ["idp_certificates", s.idp_certificates.length],
        [
          "domains",
          s.domains.map((d) =>
            d.verified
              ? `${d.domain} (verified)`
              : `${d.domain} (TXT verdict-domain-verification=${d.verification_token})`,
          ),
        ],
        ["default_role", s.default_role],
        ["enforce", s.enforce],
        ["oidc_redirect_uri", s.sp.oidc_redirect_uri],
        ["saml_entity_id", s.sp.saml_entity_id],
        ["saml_acs_url", s.sp.saml_acs_url],
        ["saml_metadata_url", s.sp.saml_metadata_url],
        ["updated_at", s.updated_at],
      ]);
    });
  sso
    .command("set")
    .description(
      "Create or replace the connection. OIDC: --issuer, --client-id, --client-secret-stdin (kept when omitted on a change).\nSAML: --idp-metadata-file or --idp-metadata-url, or --idp-entity-id, --idp-sso-url and --idp-certificate-file",
    )
    .requiredOption("--type <type>", "oidc or saml", oneOf(["oidc", "saml"] as const))
    .requiredOption("--domain <domain>", "an email domain it signs in (repeatable)", collect)
    .option(
      "--default-role <role>",
      "the role of people it creates: admin, member or viewer",
      oneOf(["admin", "member", "viewer"] as const),
    )
    .option("--enforce <bool>", "true: people of its domains may sign in only through it", bool)
    .option("--issuer <url>", "OIDC issuer")
    .option("--client-id <id>", "OIDC client id")
    .option("--client-secret-stdin", "read the OIDC client secret from stdin (never from the command line)")
    .option("--idp-metadata-file <file>", "SAML: the identity provider's metadata XML")
    .option("--idp-metadata-url <url>", "SAML: where the identity provider publishes its metadata")
    .option("--idp-entity-id <id>", "SAML: the identity provider's entity id")
    .option("--idp-sso-url <url>", "SAML: the identity provider's sign-in URL")
    .option("--idp-certificate-file <file>", "SAML: the identity provider's signing certificate (PEM)")
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const body: PutSsoConnection = {
        type: opts.type,
        domains: opts.domain,
        ...(opts.defaultRole ? { default_role: opts.defaultRole } : {}),
        ...(opts.enforce !== undefined ? { enforce: opts.enforce } : {}),
        ...(opts.issuer ? { issuer: opts.issuer } : {}),
        ...(opts.clientId ? { client_id: opts.clientId } : {}),
        ...(opts.clientSecretStdin ? { client_secret: await secretFromStdin("--client-secret-stdin") } : {}),
        ...(opts.idpMetadataFile ? { idp_metadata_xml: readText(opts.idpMetadataFile) } : {}),
        ...(opts.idpMetadataUrl ? { idp_metadata_url: opts.idpMetadataUrl } : {}),
        ...(opts.idpEntityId ? { idp_entity_id: opts.idpEntityId } : {}),
        ...(opts.idpSsoUrl ? { idp_sso_url: opts.idpSsoUrl } : {}),
        ...(opts.idpCertificateFile ? { idp_certificate: readText(opts.idpCertificateFile) } : {}),
      };
      const s = await ctx.client().putSsoConnection(body);
      if (out.json) return out.data(s);
      out.line(`saved ${s.type} connection for ${s.domains.map((d) => d.domain).join(", ")}`);
      for (const d of s.domains.filter((x) => !x.verified))
        out.line(`publish DNS TXT for ${d.domain}: verdict-domain-verification=${d.verification_token}`);
    });
  sso
    .command("delete")
    .description("Remove the connection: its people sign in with passwords again")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteSsoConnection();
      if (out.json) return out.data({ deleted: "sso" });
      out.line("deleted the SSO connection");
    });
}

function scimTokensCommand(program: Command, ctx: Context): void {
  const st = program
    .command("scim-tokens")
    .description("Bearer tokens for SCIM provisioning at /scim/v2 (admin); values are shown once");
  st.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { scim_tokens } = await ctx.client().listScimTokens();
    if (out.json) return out.data({ scim_tokens });
    out.table(
      ["ID", "NAME", "PREFIX", "EXPIRES", "LAST USED", "CREATED"],
      scim_tokens.map((t) => [t.id, t.name, t.prefix, t.expires_at ?? "never", t.last_used_at, t.created_at]),
    );
  });
  st.command("create")
    .description("Create a token for an identity provider; it is printed once")
    .argument("<name>")
    .option("--expiration <when>", EXPIRATIONS.join(", "), oneOf(EXPIRATIONS), "never" as const)
    .action(async (name: string, opts: { expiration: (typeof EXPIRATIONS)[number] }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const t = await ctx.client().createScimToken({ name, expiration: opts.expiration });
      if (out.json) return out.data(t);
      out.line(`created ${t.id} (${t.name}), expires ${t.expires_at ?? "never"}`);
      out.line(`token (shown once, paste it into the identity provider now): ${t.token}`);
    });
  st.command("delete")
    .description("Delete a token: provisioning with it stops at once")
    .argument("<token_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteScimToken(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });
}

/** `--head 42:9f86d0…`: an event number and its SHA-256 hash. */
function parseHead(value: string): { seq: number; hash: string } {
  const m = /^([1-9][0-9]*):([0-9a-f]{64})$/.exec(value.trim());
  if (!m) throw new CliError(`--head must be SEQ:HASH as an earlier verify printed it (got ${value})`);
  return { seq: Number(m[1]), hash: m[2]! };
}
