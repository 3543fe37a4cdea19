// verdict organization, repositories, keys, webhooks, verify: the organization's settings and
// what hangs off it.
import type { Command } from "commander";
import type { CreateWebhook } from "@verdict/sdk";
import type { Context } from "../context.js";
import { CliError } from "../errors.js";
import { bool, collect, collectList, jsonOf } from "./shared.js";

export function organizationCommands(program: Command, ctx: Context): void {
  const org = program.command("organization").description("The organization of the API key");
  org
    .command("get", { isDefault: true })
    .description("Show the organization and its settings")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const o = await ctx.client().getOrganization();
      if (out.json) return out.data(o);
      out.record([
        ["id", o.id],
        ["name", o.name],
        ["plan", o.plan],
        ["members", o.members_count],
        ["repositories", o.repositories_count],
        ["created_at", o.created_at],
        ["default_severity", o.settings.default_severity],
        ["require_evaluation_pass", o.settings.require_evaluation_pass],
        ["allow_inline_suppression", o.settings.allow_inline_suppression],
        ["require_connected_repository", o.settings.require_connected_repository],
        ["live_verification", liveVerification(o.settings.live_verification)],
      ]);
    });
  org
    .command("update")
    .description("Change the name or settings")
    .option("--name <name>")
    .option("--default-severity <severity>", "error or warning")
    .option("--require-evaluation-pass <bool>", "true: a failed evaluation fails `verdict evaluate` (exit 1)", bool)
    .option("--allow-inline-suppression <bool>", "honour verdict-ignore comments", bool)
    .option(
      "--require-connected-repository <bool>",
      "true: evaluations must name a repository connected through a provider connection",
      bool,
    )
    .option("--live-verification <bool>", "true: ask providers whether credentials evaluations find work", bool)
    .option(
      "--live-verification-provider <provider>",
      "the providers live verification asks (repeat, or separate with commas); default: every supported one",
      collectList,
    )
    .action(async (opts, c: Command) => {
      const settings = {
        ...(opts.defaultSeverity ? { default_severity: opts.defaultSeverity } : {}),
        ...(opts.requireEvaluationPass !== undefined ? { require_evaluation_pass: opts.requireEvaluationPass } : {}),
        ...(opts.allowInlineSuppression !== undefined ? { allow_inline_suppression: opts.allowInlineSuppression } : {}),
        ...(opts.requireConnectedRepository !== undefined
          ? { require_connected_repository: opts.requireConnectedRepository }
          : {}),
        ...(opts.liveVerification !== undefined || opts.liveVerificationProvider
          ? {
              live_verification: {
                ...(opts.liveVerification !== undefined ? { enabled: opts.liveVerification } : {}),
                ...(opts.liveVerificationProvider ? { providers: opts.liveVerificationProvider } : {}),
              },
            }
          : {}),
      };
      if (!opts.name && Object.keys(settings).length === 0)
        throw new CliError("nothing to update: give --name or a setting");
      const out = ctx.output(jsonOf(c));
      const o = await ctx.client().updateOrganization({
        ...(opts.name ? { name: opts.name } : {}),
        ...(Object.keys(settings).length ? { settings } : {}),
      });
      if (out.json) return out.data(o);
      out.line(
        `updated ${o.id}: ${Object.entries(o.settings)
          .map(([k, v]) => `${k}=${k === "live_verification" ? liveVerification(o.settings.live_verification) : v}`)
          .join(" ")}`,
      );
    });

  const repos = program.command("repositories").description("Connected repositories");
  repos.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { repositories } = await ctx.client().listRepositories();
    if (out.json) return out.data({ repositories });
    out.table(
      ["ID", "NAME", "PROVIDER", "DEFAULT BRANCH", "LAST EVALUATION"],
      repositories.map((r) => [r.id, r.name, r.provider, r.default_branch, r.last_evaluation]),
    );
  });
  repos
    .command("connect")
    .argument("<owner/repo>")
    .option(
      "--provider <provider>",
      "github (read through the organization's GitHub connection, if it has one), gitlab (read through its GitLab connection), gitea (read through its Gitea connection), bitbucket, azure-devops or generic",
      "github",
    )
    .option("--default-branch <branch>")
    .action(async (name: string, opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const r = await ctx.client().connectRepository({
        name,
        provider: opts.provider,
        ...(opts.defaultBranch ? { default_branch: opts.defaultBranch } : {}),
      });
      if (out.json) return out.data(r);
      out.line(`connected ${r.name} as ${r.id}`);
    });
  repos
    .command("disconnect")
    .argument("<repository_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().disconnectRepository(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`disconnected ${id}`);
    });

  const keys = program
    .command("keys")
    .description("API keys of the organization (admin scope); values are never shown");
  keys.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { api_keys } = await ctx.client().listApiKeys();
    if (out.json) return out.data({ api_keys });
    out.table(
      ["ID", "NAME", "PREFIX", "STATUS", "SCOPES", "EXPIRES", "LAST USED"],
      api_keys.map((k) => [
        k.id,
        k.name,
        k.prefix,
        k.status,
        k.scopes.join(","),
        k.expires_at ?? "never",
        k.last_used_at,
      ]),
    );
  });
  keys
    .command("revoke")
    .argument("<key_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().revokeApiKey(id);
      if (out.json) return out.data({ revoked: id });
      out.line(`revoked ${id}`);
    });

  const hooks = program.command("webhooks").description("Webhook endpoints and their delivery logs");
  hooks.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { webhooks } = await ctx.client().listWebhooks();
    if (out.json) return out.data({ webhooks });
    out.table(
      ["ID", "URL", "EVENTS", "STATUS"],
      webhooks.map((w) => [
        w.id,
        w.url,
        w.events.join(","),
        w.status === "active" ? out.c.green("active") : out.c.red(`disabled: ${w.disabled_reason ?? ""}`),
      ]),
    );
  });
  hooks
    .command("get")
    .argument("<webhook_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const w = await ctx.client().getWebhook(id);
      if (out.json) return out.data(w);
      out.record(Object.entries(w));
    });
  hooks
    .command("create")
    .requiredOption("--url <url>", "https endpoint")
    .option(
      "--event <event>",
      "evaluation.completed, policy.violation, finding.updated, connection.broken, connection.restored or audit.recorded (repeatable; default the first two)",
      collect,
    )
    .description("Register a webhook; its signing secret is printed once")
    .action(async (opts: { url: string; event?: string[] }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const events = (opts.event ?? ["evaluation.completed", "policy.violation"]) as CreateWebhook["events"];
      const w = await ctx.client().createWebhook({ url: opts.url, events });
      if (out.json) return out.data(w);
      out.line(`created ${w.id} for ${w.url}`);
      out.line(`signing secret (shown once, store it now): ${w.secret}`);
    });
  for (const [name, status] of [
    ["enable", "active"],
    ["disable", "disabled"],
  ] as const) {
    hooks
      .command(name)
      .argument("<webhook_id>")
      .action(async (id: string, _o, c: Command) => {
        const out = ctx.output(jsonOf(c));
        const w = await ctx.client().updateWebhook(id, { status });
        if (out.json) return out.data(w);
        out.line(`${w.id} ${w.status}`);
      });
  }
  hooks
    .command("ping")
    .argument("<webhook_id>")
    .description("Send a signed webhook.ping message")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const d = await ctx.client().pingWebhook(id);
      if (out.json) return out.data(d);
      out.line(`ping ${d.id} queued for ${id}: see 'verdict webhooks deliveries ${id}'`);
    });
  hooks
    .command("deliveries")
    .argument("<webhook_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const { deliveries } = await ctx.client().listDeliveries(id, { limit: 50 });
      if (out.json) return out.data({ deliveries });
      out.table(
        ["ID", "EVENT", "STATUS", "ATTEMPTS", "CREATED"],
        deliveries.map((d) => [d.id, d.event, d.status, d.attempts.length, d.created_at]),
      );
    });
  hooks
    .command("delete")
    .argument("<webhook_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteWebhook(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });

  program
    .command("verify")
    .description("Check the configured URL and API key (never prints the key)")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const client = ctx.client();
      const v = await client.verifyKey();
      if (out.json) return out.data({ url: client.baseUrl, ...v });
      out.record([
        ["url", client.baseUrl],
        ["valid", v.valid ? out.c.green("yes") : out.c.red("no")],
        ["key_id", v.key_id],
        ["organization", v.organization],
        ["scopes", v.scopes],
        ["expires_at", v.expires_at ?? "never"],
      ]);
    });
}

/** The live verification setting in a word: `off`, or `on(aws,github,slack,stripe)`. */
function liveVerification(s: { enabled: boolean; providers: string[] }): string {
  return s.enabled ? `on(${s.providers.join(",")})` : "off";
}
