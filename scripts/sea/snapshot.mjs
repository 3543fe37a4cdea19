// The single executable's entry (scripts/build-sea.mjs): run once at build time to make V8's
// start-up snapshot, then, in every run of the executable, the command line from that snapshot.
// What is imported here is loaded and initialized at build time: the CLI's commands (commander,
// zod), not the engine, whose native addons (RE2, ast-grep) cannot be in a snapshot, and not the
// policy library: the built-in policies as `evaluate --offline` runs them come resolved, as JSON
// made by build-sea.mjs, parsed on first use (about 5 ms, where reading the library's and the
// resolution's objects back from the snapshot took about 40 ms of every run). None of these
// modules reads the environment, the terminal or the clock when it loads: main.ts's run() does,
// at run time.
import { startupSnapshot } from "node:v8";
import builtinResolutionJson from "verdict-sea:builtin-resolution";
import { provideBuiltinResolution } from "../../libs/cli/src/builtinPolicies.ts";
import { Context } from "../../libs/cli/src/context.ts";
import { run } from "../../libs/cli/src/main.ts";
import { buildProgram } from "../../libs/cli/src/program.ts";
import "../../libs/cli/src/offline.ts";

// Warm-up: the command line built once, on a context that writes nothing, so that V8 has compiled
// its code when the snapshot is taken.
const quiet = { isTTY: false, write: () => true };
buildProgram(new Context({ env: {}, cwd: "/", stdout: quiet, stderr: quiet }));
provideBuiltinResolution(() => JSON.parse(builtinResolutionJson));

startupSnapshot.setDeserializeMainFunction(run);
