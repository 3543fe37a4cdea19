// The `verdict` command line: every command, wired to one context (configuration, client,
// output). Parsing is commander's; what each command does is in commands/.
import { Command } from "commander";
import { baselineCommands } from "./commands/baseline.js";
import { completionCommand } from "./commands/completion.js";
import { connectionsCommands } from "./commands/connections.js";
import { complianceCommands } from "./commands/compliance.js";
import { evaluateCommand } from "./commands/evaluate.js";
import { evaluationsCommand } from "./commands/evaluations.js";
import { findingsCommand } from "./commands/findings.js";
import { hookCommands } from "./commands/hook.js";
import { loginCommands } from "./commands/login.js";
import { mcpCommand } from "./commands/mcp.js";
import { organizationCommands } from "./commands/organization.js";
import { peopleCommands } from "./commands/people.js";
import { policiesCommand } from "./commands/policies.js";
import { scanCommands } from "./commands/scan.js";
import type { Context } from "./context.js";
import { VERSION } from "./version.js";

export function buildProgram(ctx: Context): Command {
  const program = new Command("verdict")
    .description(
      "Verdict: check code changes against policies, manage policies, compliance evidence, people and access.\nConfiguration: VERDICT_URL and VERDICT_API_KEY, or `verdict login`.",
    )
    .version(VERSION)
    .option("--json", "print JSON instead of tables")
    .showSuggestionAfterError()
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      "after",
      "\nExit codes: 0 success (evaluation passed), 1 evaluation failed, 2 usage, authentication, connection or API error.",
    );
  evaluateCommand(program, ctx);
  baselineCommands(program, ctx);
  scanCommands(program, ctx);
  hookCommands(program, ctx);
  evaluationsCommand(program, ctx);
  findingsCommand(program, ctx);
  policiesCommand(program, ctx);
  organizationCommands(program, ctx);
  connectionsCommands(program, ctx);
  complianceCommands(program, ctx);
  peopleCommands(program, ctx);
  loginCommands(program, ctx);
  mcpCommand(program, ctx);
  completionCommand(program, ctx);
  // Every (sub)command: usage errors throw instead of exiting, so bin.ts decides the exit code.
  const override = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ outputError: () => undefined });
    cmd.commands.forEach(override);
  };
  override(program);
  return program;
}
