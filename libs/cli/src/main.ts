// The `verdict` command (bin.ts loads it and calls run()). Ends with exit 0 (success), 1 (evaluation failed) or 2
// (anything that stopped the command), printing one line and never a stack trace or an API key.
import { type Command, CommanderError } from "commander";
import { Context } from "./context.js";
import { describeError, EXIT, redactKeys } from "./errors.js";
import { buildProgram } from "./program.js";

/** Runs the command line of this process (bin.ts, or the single executable after its start-up snapshot). */
export function run(): void {
  // A reader that stops early (`verdict … | head`) closes the pipe: what it wanted has been written,
  // so the command ends quietly, with the exit code it has so far, instead of an EPIPE stack trace.
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE") throw err;
      process.exit(Number(process.exitCode ?? EXIT.ok));
    });
  const ctx = new Context({ env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
  void main(buildProgram(ctx));
}

// (A function, not top-level await: the single executable bundles this file as CommonJS.)
async function main(program: Command): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, successfully.
      if (err.exitCode === 0) process.exit(0);
      // A command group without its subcommand: commander has printed the group's help to stderr.
      if (err.code === "commander.help") process.exit(EXIT.error);
      process.stderr.write(
        `verdict: ${redactKeys(err.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " "))} (see verdict --help)\n`,
      );
      process.exit(EXIT.error);
    }
    process.stderr.write(`verdict: ${redactKeys(describeError(err)).replace(/\s*\n\s*/g, " ")}\n`);
    process.exit(EXIT.error);
  }
}
