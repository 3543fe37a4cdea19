// verdict login / logout: keeps the URL and API key in the user's config directory (0600), so
// VERDICT_URL and VERDICT_API_KEY need not be exported in every shell.
import type { Command } from "commander";
import { VerdictClient, normalizeBaseUrl } from "@verdict/sdk";
import { configPath, DEFAULT_URL, readStoredConfig, removeStoredConfig, writeStoredConfig } from "../config.js";
import type { Context } from "../context.js";
import { CliError } from "../errors.js";
import { VERSION } from "../version.js";
import { jsonOf } from "./shared.js";

async function readStdin(stream: NodeJS.ReadStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text.trim();
}

export function loginCommands(program: Command, ctx: Context): void {
  program
    .command("login")
    .description("Check an API key and store it with the URL in your config directory")
    .option("--url <url>", "where Verdict runs", undefined)
    .option("--api-key-stdin", "read the key from stdin instead of prompting")
    .action(async (opts: { url?: string; apiKeyStdin?: boolean }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const url = normalizeBaseUrl(
        opts.url ?? ctx.io.env.VERDICT_URL ?? readStoredConfig(configPath(ctx.io.env)).url ?? DEFAULT_URL,
      );
      const stdin = process.stdin;
      let key: string;
      if (opts.apiKeyStdin || !stdin.isTTY) key = await readStdin(stdin);
      // Loaded only to prompt: other commands start faster without it.
      else
        key = (
          await (await import("@inquirer/password")).default({ message: `API key for ${url}:`, mask: "*" })
        ).trim();
      if (!key) throw new CliError("no API key given");
      const v = await new VerdictClient({ baseUrl: url, apiKey: key, userAgent: `verdict-cli/${VERSION}` }).verifyKey();
      const path = configPath(ctx.io.env);
      writeStoredConfig({ url, api_key: key }, path);
      if (out.json)
        return out.data({ url, key_id: v.key_id, organization: v.organization, scopes: v.scopes, config_file: path });
      out.line(
        `logged in to ${url} as key ${v.key_id} of ${v.organization} (${v.scopes.join(", ")}); saved to ${path}`,
      );
    });

  program
    .command("logout")
    .description("Remove the stored URL and API key")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const path = configPath(ctx.io.env);
      const removed = removeStoredConfig(path);
      if (out.json) return out.data({ config_file: path, removed });
      out.line(removed ? `removed ${path}` : `nothing stored at ${path}`);
    });
}
