// Starts the real all-in-one process (the README's run command, minus the install) on free
// ports with a fresh data directory, and talks to it over real HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { makeKey } from "./keys.js";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const MAIN = join(ROOT, "services/all-in-one/dist/main.js");

export interface Verdict {
  url: string;
  port: number;
  grpcPorts: { identity: number; policy: number; evaluation: number; webhooks: number };
  bootstrapKey: string;
  dataDir: string;
  proc: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and waits for the exit code. */
  stop(): Promise<number | null>;
  /** Stops (if running) and removes the data directory. */
  destroy(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  bootstrapKey?: string;
}

export async function startVerdict(opts: StartOptions = {}): Promise<Verdict> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "verdict-e2e-"));
  const bootstrapKey = opts.bootstrapKey ?? makeKey("prod");
  const proc = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      VERDICT_HTTP_PORT: "0",
      VERDICT_HTTP_HOST: "127.0.0.1",
      VERDICT_DATA_DIR: dataDir,
      VERDICT_BOOTSTRAP_API_KEY: bootstrapKey,
      VERDICT_LOG_LEVEL: "info",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const exited = new Promise<number | null>((res) => proc.once("exit", (code) => res(code)));

  const ready = await new Promise<{ http_port: number; grpc_ports: Verdict["grpcPorts"] }>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`Verdict did not become ready in time:\n${out}`)), 30_000);
    const check = () => {
      for (const line of out.split("\n")) {
        if (!line.includes("Verdict is ready")) continue;
        clearTimeout(timer);
        proc.stdout!.off("data", check);
        return res(JSON.parse(line));
      }
    };
    proc.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      rej(new Error(`Verdict exited with ${code} before it was ready:\n${out}`));
    });
  });

  let stopped: Promise<number | null> | undefined;
  const stop = () => {
    if (!stopped) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      stopped = exited;
    }
    return stopped;
  };
  return {
    url: `http://127.0.0.1:${ready.http_port}`,
    port: ready.http_port,
    grpcPorts: ready.grpc_ports,
    bootstrapKey,
    dataDir,
    proc,
    output: () => out,
    stop,
    async destroy() {
      await stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
