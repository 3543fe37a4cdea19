// The single executable's entry (scripts/build-sea.mjs): run once at build time to make V8's
// start-up snapshot, then, in every run of the executable, the command line from that snapshot.
// What is imported here is loaded and initialized at build time: the CLI's commands and the
// policy library (commander, zod, the built-in policies), not the engine, whose native addons
// (RE2, ast-grep) load after the snapshot is read, on first use. None of these modules reads the
// environment, the terminal or the clock when it loads: main.ts's run() does, at run time.
import { startupSnapshot } from "node:v8";
import { builtinResolution } from "../../libs/cli/src/builtinPolicies.ts";
import { Context } from "../../libs/cli/src/context.ts";
import { run } from "../../libs/cli/src/main.ts";
import { buildProgram } from "../../libs/cli/src/program.ts";

// Warm-up: the command line built once, on a context that writes nothing, so that V8 has compiled
// its code when the snapshot is taken; and the built-in policies resolved, kept in the snapshot
// (what `evaluate --offline` runs without a pulled policy set).
const quiet = { isTTY: false, write: () => true };
buildProgram(new Context({ env: {}, cwd: "/", stdout: quiet, stderr: quiet }));
builtinResolution();

startupSnapshot.setDeserializeMainFunction(run);
