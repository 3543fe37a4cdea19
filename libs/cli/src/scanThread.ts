// `scan history --offline`'s engine on a thread of its own (offline.ts starts one or more): the CLI's
// thread reads git and composes the texts while this one scans them. A slice's texts come in one
// transferred buffer; every finding of each text goes back, as offlineScanner() gives them.
import { enableCompileCache } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type { PolicyToRun } from "@verdict/evaluation/offline";

// V8's compile cache is per thread (bin.ts enables the main thread's): enabled here before the
// engine's modules are imported, so that a thread reads back the code an earlier run compiled.
enableCompileCache();
const { compileEngine, notChecked } = await import("@verdict/evaluation/offline");

/** What the CLI's thread sends: the texts' paths, their bytes one after the other, and where each ends. */
export interface ScanRequest {
  id: number;
  paths: string[];
  bytes: ArrayBuffer;
  ends: number[];
}

export type ScanReply = { id: number; findings: unknown[][] } | { id: number; error: string };

const { run, allowSuppression } = workerData as { run: PolicyToRun[]; allowSuppression: boolean };
const engine = compileEngine(run, { lazyRules: true });
const port = parentPort!;

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
