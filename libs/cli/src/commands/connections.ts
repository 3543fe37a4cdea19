// verdict connections: the organization's connections to a hosting provider (Gitea, Forgejo,
// GitHub as a GitHub App). Gitea's token is read from stdin and a GitHub App's private key from
// its file, never from the command line; the webhook secret is made here (or read from a file)
// and printed once, to paste into the provider's webhook (the GitHub App's settings).
import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import type { Connection, CreateConnection } from "@verdict/sdk";
import type { Context } from "../context.js";
import { CliError } from "../errors.js";
import { jsonOf, readText, secretFromStdin } from "./shared.js";

/** When the connection's token expires: its date, "renewed hourly" (a GitHub App), "never", "unknown". */
function tokenExpires(k: Pick<Connection, "token_expiry" | "token_expires_at">): string {
  if (k.token_expiry === "expires") return k.token_expires_at ?? "unknown";
  if (k.token_expiry === "renewed") return "renewed hourly";
  return k.token_expiry === "none" ? "never" : "unknown";
}

export function connectionsCommands(program: Command, ctx: Context): void {
  const conns = program
    .command("connections")
    .description(
      "Connections to a hosting provider (Gitea, Forgejo, GitHub as a GitHub App); tokens, keys and secrets are never shown back",
    );
  conns.command("list").action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const { connections } = await ctx.client().listConnections();
    if (out.json) return out.data({ connections });
    out.table(
      ["ID", "PROVIDER", "BASE URL", "STATUS", "LAST EVENT", "LAST ERROR", "TOKEN EXPIRES"],
      connections.map((k) => [
        k.id,
        k.provider,
        k.base_url,
        k.status === "active" ? out.c.green("active") : out.c.red(k.status),
        k.last_event_at,
        k.last_error,
        tokenExpires(k),
      ]),
    );
  });
  conns
    .command("create")
    .description(
      "Connect a provider (Gitea, GitLab: an access token read from stdin; GitHub: the App's id and private key file); prints the events URL and the webhook secret (once) for the provider's webhook",
    )
    .requiredOption("--provider <provider>", "gitea (Gitea or Forgejo), gitlab, or github (a GitHub App)")
    .requiredOption(
      "--base-url <url>",
      "the provider's URL, e.g. https://gitea.example.com, https://gitlab.com; GitHub's API: https://api.github.com (Enterprise Server: https://HOST/api/v3)",
    )
    .option("--token-stdin", "gitea, gitlab: read the access token from stdin (never from the command line)")
    .option("--app-id <id>", "github: the GitHub App's id")
    .option("--private-key-file <file>", "github: the GitHub App's private key (the .pem GitHub made)")
    .option("--webhook-secret-file <file>", "the webhook secret (first line); made at random when omitted")
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const github = opts.provider === "github";
      if (github && !(opts.appId && opts.privateKeyFile))
        throw new CliError("--provider github takes --app-id and --private-key-file");
      if (!github && !opts.tokenStdin) throw new CliError(`--provider ${opts.provider} takes --token-stdin`);
      const webhookSecret = opts.webhookSecretFile
        ? secretFromFile(opts.webhookSecretFile)
        : randomBytes(24).toString("hex");
      const credentials = github
        ? { app_id: String(opts.appId), private_key: readText(opts.privateKeyFile) }
        : { token: await secretFromStdin("--token-stdin") };
      const conn = await ctx.client().createConnection({
        provider: opts.provider as CreateConnection["provider"],
        base_url: opts.baseUrl,
        ...credentials,
        webhook_secret: webhookSecret,
      });
      if (out.json) return out.data({ ...conn, webhook_secret: webhookSecret });
      out.line(`created ${conn.id} (${conn.provider}${conn.app_id ? ` App ${conn.app_id}` : ""} at ${conn.base_url})`);
      out.line(`events URL (the provider's webhook target): ${conn.events_url}`);
      out.line(`webhook secret (shown once, set it on the provider's webhook now): ${webhookSecret}`);
    });
  conns
    .command("delete")
    .description("Delete a connection: its deliveries are refused and its repositories are no longer checked")
    .argument("<connection_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteConnection(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });
}

function secretFromFile(file: string): string {
  const secret = readText(file).split(/\r?\n/)[0]!.trim();
  if (!secret) throw new CliError(`--webhook-secret-file: ${file} is empty`);
  return secret;
}
