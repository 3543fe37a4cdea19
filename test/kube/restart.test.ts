// deploy/kube/cluster.sh after a run that was killed before its tear-down (a CI job or a session
// stopped mid-run): every daemon gone, their state left on disk. `cluster.sh up` must then give a
// fresh cluster, not the killed run's: once, etcd brought back a whole release's pods (all started
// at once, beside the next run's other suites) and the next `helm install verdict` failed with
// "cannot re-use a name that is still in use". And `up` on a cluster that is running must keep it.
// The cluster this leaves is a fresh one with the images still loaded (containerd's image store
// is kept), so the other cluster suites may run after it in any order.
import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CACHE, KUBECONFIG, ROOT, networkPolicyAgentReady, sh } from "./kube.js";

const STATE = join(CACHE, "cluster");
const NS = "left-by-a-killed-run";

/** Kills every daemon of the cluster at once, as the end of a session or a CI job does. */
function killAll(): number {
  let killed = 0;
  for (const f of readdirSync(STATE).filter((n) => n.endsWith(".pid"))) {
    const pid = Number(readFileSync(join(STATE, f), "utf8").trim());
    try {
      process.kill(pid, "SIGKILL");
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}

const cluster = (command: string) => sh("/bin/bash", [join(ROOT, "deploy/kube/cluster.sh"), command], 300_000);
const up = () => cluster("up");
/** `cluster.sh status` (docs/kubernetes.md): its output, and whether it exited 0 (every daemon running). */
const status = () =>
  cluster("status").then(
    (out) => ({ ok: true, out }),
    (err: Error) => ({ ok: false, out: err.message }),
  );
const DAEMONS = [
  "containerd",
  "etcd",
  "kube-apiserver",
  "kube-controller-manager",
  "kube-scheduler",
  "kubelet",
  "kube-proxy",
  "coredns",
  "metrics-server",
];
const namespaces = async () =>
  (await sh("kubectl", ["get", "namespaces", "-o", "jsonpath={.items[*].metadata.name}"])).split(" ");

describe("deploy/kube/cluster.sh up", () => {
  it("keeps a cluster that is running, and starts fresh after a killed run instead of bringing it back", async () => {
    if (!KUBECONFIG)
      throw new Error("KUBECONFIG is not set: run scripts/test-kube.sh (it starts deploy/kube/cluster.sh)");
    await sh("kubectl", ["create", "namespace", NS]);
    await sh("kubectl", ["-n", NS, "create", "configmap", "evidence", "--from-literal=run=killed"]);

    // Idempotent: a second `up` beside a running cluster changes nothing.
    const again = await up();
    expect(again).not.toContain("tearing it down first");
    expect(await namespaces()).toContain(NS);

    // Killed mid-run: etcd, the API server, the kubelet, containerd... all at once.
    expect(killAll()).toBeGreaterThanOrEqual(6);
    await new Promise((r) => setTimeout(r, 1_000));
    // Killed daemons (zombies until reaped, their PIDs free for others) are said as not running.
    const killed = await status();
    expect(killed.ok).toBe(false);
    for (const d of DAEMONS) expect(killed.out).toContain(`${d}: not running`);
    const restarted = await up();
    expect(restarted).toContain("an earlier cluster's state is left (its daemons are gone): tearing it down first");
    expect(restarted).toMatch(/node verdict-node Ready in \d+ s/);

    const names = await namespaces();
    expect(names).not.toContain(NS);
    expect(names).toEqual(expect.arrayContaining(["default", "kube-system"]));
    const fresh = await status();
    expect(fresh.ok).toBe(true);
    for (const d of DAEMONS) expect(fresh.out).toMatch(new RegExp(`^${d}: running \\(pid \\d+\\)$`, "m"));
    expect(fresh.out).toContain("kube-network-policies: 1 ready");
    // The node serves again: the NetworkPolicy agent, which every other suite's pods need, is ready.
    expect(await networkPolicyAgentReady()).toBe("1");
  }, 420_000);
});
