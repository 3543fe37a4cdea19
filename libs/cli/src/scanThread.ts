// `scan history --offline`'s engine on a thread of its own (scanThreads.ts starts one or more): the
// CLI's thread reads git and composes the texts while this one scans them. The thread resolves
// the policies itself (the pulled set, or the built-in library: a third of a second of module
// loading kept off the CLI's thread, which starts git meanwhile), says which version it runs (or
// why it cannot), then scans. A slice's texts come in one transferred buffer; every finding of
// each text goes back, as offlineScanner() gives them.
import { enableCompileCache } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

/** What the thread is to run: as `verdict policies pull` stored them (or the built-ins), selected. */
export interface ThreadPolicies {
  cachePath: string;
  url: string;
  ids: string[];
  categories: string[];
}

/** The thread's first message: the policies it compiled. */
export interface ThreadReady {
  version: string;
  source: string;
}

/** What the CLI's thread sends: the texts' paths, their bytes one after the other, and where each ends. */
export interface ScanRequest {
  id: number;
  paths: string[];
  bytes: ArrayBuffer;
  ends: number[];
}

export type ScanReply = { id: number; findings: unknown[][] } | { id: number; error: string };

// V8's compile cache is per thread (bin.ts enables the main thread's): enabled here before the
// engine's modules are imported, so that a thread reads back the code an earlier run compiled.
enableCompileCache();
const { CliError, engineLoadError } = await import("./errors.js");
type Engine = typeof import("@verdict/evaluation/offline");
type Offline = typeof import("./offline.js");
const port = parentPort!;
const ask = workerData as ThreadPolicies;

/**
 * The engine's modules and the policies asked for, or the one line that says why not: the
 * engine's addon cannot load here (said as `evaluate --offline` says it), an unknown policy or
 * category, an unreadable cache. The command ends with it (exit 2).
 */
async function load(): Promise<{ engine: Engine; policies: Awaited<ReturnType<Offline["offlinePolicies"]>> } | string> {
  let engine: Engine;
  let offline: Offline;
  try {
    [engine, offline] = await Promise.all([import("@verdict/evaluation/offline"), import("./offline.js")]);
    engine.loadAddons();
  } catch (err) {
    return engineLoadError(err as Error).message;
  }
  try {
    return {
      engine,
      policies: await offline.offlinePolicies(offline.readPolicyCache(ask.cachePath, ask.url), ask.ids, ask.categories),
    };
  } catch (err) {
    if (err instanceof CliError) return err.message;
    throw err;
  }
}

const loaded = await load();
// Refused: said once; with nothing to listen to, the thread then ends.
if (typeof loaded === "string") port.postMessage({ refused: loaded });
else serve(loaded.engine, loaded.policies);

function serve({ compileEngine, notChecked }: Engine, policies: Awaited<ReturnType<Offline["offlinePolicies"]>>): void {
  const engine = compileEngine(policies.run, { lazyRules: true });
  const allowSuppression = policies.allowSuppression;
  port.postMessage({ version: policies.version, source: policies.source } satisfies ThreadReady);
  port.on("message", ({ id, paths, bytes, ends }: ScanRequest) => {
    let reply: ScanReply;
    try {
      const all = Buffer.from(bytes);
      reply = {
        id,
        findings: paths.map((path, i) =>
          // No provider is asked offline: a credential one could verify says so, as the server's scan does.
          notChecked(engine.scan(path, all.subarray(i ? ends[i - 1] : 0, ends[i]), { allowSuppression }).findings),
        ),
      };
    } catch (err) {
      reply = { id, error: (err as Error).stack ?? String(err) };
    }
    port.postMessage(reply);
  });
}
