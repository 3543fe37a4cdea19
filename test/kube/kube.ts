// What the cluster suites share: the tools deploy/kube/tools.sh built, run with the cluster's
// KUBECONFIG (scripts/test-kube.sh sets it).
import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const CHART = join(ROOT, "charts/verdict");
export const CACHE = process.env.VERDICT_KUBE_CACHE ?? join(homedir(), ".cache/verdict-kube");
export const BIN = join(CACHE, "bin");
export const KUBECONFIG = process.env.KUBECONFIG ?? "";
export const IMAGE_TAG = process.env.VERDICT_KUBE_IMAGE_TAG ?? "test";
export const UPGRADE_TAG = process.env.VERDICT_KUBE_UPGRADE_TAG ?? "upgrade";

/** Runs one of the cluster tools; resolves with its output, rejects with it on a non-zero exit. */
export async function sh(
  cmd: string,
  args: string[],
  timeoutMs = 600_000,
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd.includes("/") ? cmd : join(BIN, cmd), args, {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${BIN}:${process.env.PATH ?? ""}`,
        KUBECONFIG,
        HELM_CACHE_HOME: join(CACHE, "helm-cache"),
        HELM_CONFIG_HOME: join(CACHE, "helm-config"),
        ...env,
      },
    });
    let out = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else reject(new Error(`${cmd} ${args.join(" ")} exited ${code}:\n${out}`));
    });
  });
}

/** How many pods of the NetworkPolicy agent (the DaemonSet deploy/kube/cluster.sh runs) are ready: "1" on a working node. */
export function networkPolicyAgentReady(): Promise<string> {
  return sh("kubectl", [
    "-n",
    "kube-system",
    "get",
    "daemonset",
    "kube-network-policies",
    "-o",
    "jsonpath={.status.numberReady}",
  ]);
}

/** The shell commands of a Markdown document's ```sh blocks: comments dropped, continuations joined. */
export function shellCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, "");
    for (const line of joined.split("\n")) {
      const cmd = line.trim();
      if (cmd && !cmd.startsWith("#")) commands.push(cmd);
    }
  }
  return commands;
}

/** Splits a documented command into its words (single and double quotes; no other shell syntax). */
export function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}
