// verdict policies list|get|enable|disable|update|create|delete|pull
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CreatePolicy, Policy } from "@verdict/sdk";
import type { Context, Output } from "../context.js";
import { CliError } from "../errors.js";
import { bool, collect, jsonOf } from "./shared.js";

// yaml is loaded when a command reads YAML, not at every start of the CLI.
const parseYaml = (text: string): unknown =>
  (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);

function showPolicy(out: Output, p: Policy): void {
  if (out.json) return out.data(p);
  out.record([
    ["id", p.id],
    ["name", p.name],
    ["description", p.description],
    ["severity", p.severity],
    ["enabled", p.enabled],
    ["category", p.category],
    ["builtin", p.builtin],
    ["frameworks", p.frameworks],
    ["patterns", p.patterns.length],
    ["settings", Object.keys(p.settings).length ? JSON.stringify(p.settings) : ""],
    ["documentation", p.documentation_url],
  ]);
}

/** A policy definition from a YAML or JSON file (YAML 1.2 reads both). */
export function readPolicyFile(path: string, cwd: string): CreatePolicy {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), "utf8");
  } catch {
    throw new CliError(`cannot read ${path}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new CliError(`${path} is not valid YAML or JSON: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    throw new CliError(`${path} must hold one policy object (id, name, severity, patterns, …)`);
  return doc as CreatePolicy;
}

/** key=value settings; values are read as YAML scalars (true, 3.5, [a, b]). */
function parseSettings(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const i = pair.indexOf("=");
    if (i < 1) throw new CliError(`--setting must be key=value (got ${pair})`);
    out[pair.slice(0, i)] = parseYaml(pair.slice(i + 1));
  }
  return out;
}

export function policiesCommand(program: Command, ctx: Context): void {
  const cmd = program.command("policies").description("Built-in and custom policies");

  cmd
    .command("list")
    .description("The organization's policies")
    .option("--category <category>", "secrets, security, configuration, custom, …")
    .option("--severity <severity>", "error or warning")
    .option("--enabled <bool>", "true or false", bool)
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const { policies } = await ctx
        .client()
        .listPolicies({ category: opts.category, severity: opts.severity, enabled: opts.enabled });
      if (out.json) return out.data({ policies });
      out.table(
        ["ID", "CATEGORY", "SEVERITY", "ENABLED", "NAME"],
        policies.map((p) => [
          p.id,
          p.category,
          p.severity === "error" ? out.c.red("error") : out.c.yellow("warning"),
          p.enabled ? out.c.green("yes") : out.c.dim("no"),
          p.name,
        ]),
      );
    });

  cmd
    .command("get")
    .argument("<policy_id>")
    .description("One policy with its patterns and settings")
    .action(async (id: string, _o, c: Command) => showPolicy(ctx.output(jsonOf(c)), await ctx.client().getPolicy(id)));

  for (const [name, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    cmd
      .command(name)
      .argument("<policy_id>")
      .description(`${name === "enable" ? "Enable" : "Disable"} a policy for the organization`)
      .action(async (id: string, _o, c: Command) => {
        const out = ctx.output(jsonOf(c));
        const p = await ctx.client().updatePolicy(id, { enabled });
        if (out.json) return out.data(p);
        out.line(`${p.id} ${enabled ? "enabled" : "disabled"}`);
      });
  }

  cmd
    .command("update")
    .argument("<policy_id>")
    .description("Change a policy's severity or settings")
    .option("--severity <severity>", "error or warning")
    .option("--setting <key=value>", "a policy setting (repeatable), e.g. detect_api_keys=true", collect)
    .action(async (id: string, opts: { severity?: "error" | "warning"; setting?: string[] }, c: Command) => {
      if (!opts.severity && !opts.setting) throw new CliError("nothing to update: give --severity or --setting");
      const p = await ctx.client().updatePolicy(id, {
        ...(opts.severity ? { severity: opts.severity } : {}),
        ...(opts.setting ? { settings: parseSettings(opts.setting) } : {}),
      });
      showPolicy(ctx.output(jsonOf(c)), p);
    });

  cmd
    .command("create")
    .argument(
      "<file>",
      "YAML or JSON: id, name, severity, patterns (type, value, message), optional description, category, frameworks, suggestions",
    )
    .description("Create a custom policy from a file")
    .action(async (file: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const p = await ctx.client().createPolicy(readPolicyFile(file, ctx.io.cwd));
      if (out.json) return out.data(p);
      out.line(
        `created ${p.id} (${p.patterns.length} ${p.patterns.length === 1 ? "pattern" : "patterns"}, ${p.severity})`,
      );
    });

  cmd
    .command("delete")
    .argument("<policy_id>")
    .description("Delete a custom policy (built-in policies can only be disabled)")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deletePolicy(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });

  cmd
    .command("pull")
    .description("Store the organization's policies on this machine, for 'verdict evaluate --offline'")
    .action(async (_o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const { offlinePolicies, policyCachePath, pullPolicies, writePolicyCache } = await import("../offline.js");
      const cache = await pullPolicies(ctx.client());
      const path = policyCachePath(ctx.io.env);
      writePolicyCache(path, cache);
      const { version, run } = await offlinePolicies(cache, []);
      if (out.json)
        return out.data({ path, url: cache.url, policies: cache.policies.length, enabled: run.length, version });
      out.line(
        `stored ${cache.policies.length} policies (${run.length} enabled) of ${cache.url} in ${path}: policy version ${version}`,
      );
    });
}
