// The chart's default mode on the real cluster, with the operator's guide's own commands
// (charts/verdict/README.md): `helm install` with the default values — the all-in-one pod, its
// SQLite store on a PersistentVolumeClaim, bound here to a static hostPath PersistentVolume (the
// test cluster has no provisioner) — the NOTES command that reads the generated operator key,
// `helm test`, an evaluation that survives the pod being deleted, and the guide's upgrade, history
// and rollback commands, the data still there after each. The guide's other commands (the
// distributed install on an external MongoDB) run as far as this cluster allows: their Secrets
// are created with `kubectl create secret` exactly as written and the chart renders them.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chownSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CACHE, CHART, IMAGE_TAG, KUBECONFIG, UPGRADE_TAG, sh, shellCommands, words } from "./kube.js";

const GUIDE = readFileSync(join(CHART, "README.md"), "utf8");
const COMMANDS = shellCommands(GUIDE);
const NS = "verdict";
const PORT = 30081;
const BASE = `http://127.0.0.1:${PORT}/v1`;
const PV_DIR = join(CACHE, "cluster/pv/verdict-all-in-one");
const PV = "verdict-all-in-one-test";
// What this registry-less cluster needs on top of a documented command: the locally loaded image,
// and the service on a NodePort the test can reach.
const LOCAL = join(CACHE, "cluster/all-in-one-local-values.yaml");
const LOCAL_VALUES = `image: {tag: ${IMAGE_TAG}, pullPolicy: Never}
allInOne:
  service: {type: NodePort, nodePort: ${PORT}}
`;
const timings: Record<string, number> = {};
let key = "";

function documented(prefix: string): string[] {
  const found = COMMANDS.filter((c) => c.startsWith(prefix));
  if (found.length === 0) throw new Error(`charts/verdict/README.md has no command starting with "${prefix}"`);
  return found;
}

/** Runs a documented command as a user would (bash, the cluster's tools first on PATH), with words appended. */
async function run(command: string, extra: string[] = [], timeoutMs = 600_000): Promise<string> {
  const t0 = Date.now();
  try {
    return await sh("/bin/bash", ["-c", `${command} "$@"`, "bash", ...extra], timeoutMs);
  } finally {
    timings[command.slice(0, 40)] = Math.round((Date.now() - t0) / 100) / 10;
  }
}

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${BASE}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function serving(): Promise<void> {
  await sh("kubectl", ["-n", NS, "rollout", "status", "deployment/verdict-all-in-one", "--timeout=300s"]);
  // The NodePort answers once kube-proxy has the new endpoint.
  for (let i = 0; i < 60; i++) {
    const ok = await fetch(`${BASE}/health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error("the all-in-one did not answer on its NodePort");
}

const CHANGE = {
  repository: "acme/all-in-one",
  ref: "feature/login",
  base_ref: "main",
  files: [{ path: "src/a.js", status: "modified", content: 'const key = "AKIAZ7VQ3X4M2N8P5R6T";\n' }],
};

describe("the chart's default install (all-in-one on a PersistentVolumeClaim), by the operator's guide", () => {
  let evaluationId = "";

  beforeAll(async () => {
    if (!KUBECONFIG)
      throw new Error("KUBECONFIG is not set: run scripts/test-kube.sh (it starts deploy/kube/cluster.sh)");
    // A static PersistentVolume for the claim (no storage class: it binds a claim that names none).
    rmSync(PV_DIR, { recursive: true, force: true });
    mkdirSync(PV_DIR, { recursive: true });
    chownSync(PV_DIR, 10001, 10001); // the chart's runAsUser: a hostPath volume ignores fsGroup
    writeFileSync(LOCAL, LOCAL_VALUES);
    const pv = `{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"${PV}"},"spec":{"capacity":{"storage":"5Gi"},"accessModes":["ReadWriteOnce"],"persistentVolumeReclaimPolicy":"Retain","claimRef":{"namespace":"${NS}","name":"verdict-all-in-one"},"hostPath":{"path":"${PV_DIR}","type":"Directory"}}}`;
    const pvFile = join(CACHE, "cluster/all-in-one-pv.json");
    writeFileSync(pvFile, pv);
    await sh("kubectl", ["apply", "-f", pvFile]);
  }, 120_000);

  afterAll(async () => {
    process.stdout.write(`all-in-one cluster test timings (s): ${JSON.stringify(timings)}\n`);
    await sh("kubectl", ["delete", "namespace", NS, "--wait=true", "--timeout=180s"]).catch(() => undefined);
    await sh("kubectl", ["delete", "pv", PV, "--wait=true", "--timeout=60s"]).catch(() => undefined);
    rmSync(PV_DIR, { recursive: true, force: true });
  }, 300_000);

  it("installs with the guide's command and the default values; the claim binds and the pod is ready", async () => {
    const [install] = documented("helm install verdict charts/verdict -n verdict --create-namespace");
    expect(install).toBe("helm install verdict charts/verdict -n verdict --create-namespace");
    await run(install!, ["-f", LOCAL, "--wait", "--timeout", "6m"], 420_000);
    await serving();
    const claim = await sh("kubectl", [
      "-n",
      NS,
      "get",
      "pvc",
      "verdict-all-in-one",
      "-o",
      "jsonpath={.status.phase} {.spec.volumeName}",
    ]);
    expect(claim).toBe(`Bound ${PV}`);
  }, 480_000);

  it("reads the generated operator key with the NOTES command and evaluates a change with it", async () => {
    const notes = await sh("helm", ["-n", NS, "get", "notes", "verdict"]);
    const logs = /kubectl -n verdict logs (.*) \| grep -o 'vdt_key_\[A-Za-z0-9_\]\*'/.exec(notes);
    expect(logs).not.toBeNull();
    const out = await sh("kubectl", ["-n", NS, "logs", ...words(logs![1]!)]);
    key = /vdt_key_[A-Za-z0-9_]*/.exec(out)?.[0] ?? "";
    expect(key).toMatch(/^vdt_key_prod_/);
    const res = await api("/evaluations", { method: "POST", body: JSON.stringify(CHANGE) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "completed", passed: false });
    evaluationId = res.body.id as string;
  }, 120_000);

  it("passes the guide's helm test", async () => {
    const [test] = documented("helm test verdict -n verdict");
    const out = await run(test!, ["--timeout", "3m"], 240_000);
    expect(out).toMatch(/Phase:\s+Succeeded/);
  }, 240_000);

  it("keeps the data when the pod is deleted (the volume outlives it)", async () => {
    const t0 = Date.now();
    await sh("kubectl", ["-n", NS, "delete", "pod", "-l", "app.kubernetes.io/component=allInOne", "--wait=true"]);
    await serving();
    timings["pod replaced"] = Math.round((Date.now() - t0) / 100) / 10;
    const res = await api(`/evaluations/${evaluationId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: evaluationId, status: "completed", passed: false });
  }, 420_000);

  it("upgrades, lists the history and rolls back with the guide's commands, the data still there", async () => {
    const [upgrade] = documented("helm upgrade verdict charts/verdict -n verdict -f my-values.yaml");
    // The guide's command with this cluster's values file and image tag in place of the examples.
    const cmd = upgrade!.replace("my-values.yaml", LOCAL).replace("image.tag=0.2.0", `image.tag=${UPGRADE_TAG}`);
    expect(cmd).not.toBe(upgrade);
    await run(cmd, ["--timeout", "6m"], 420_000);
    await serving();
    const image = await sh("kubectl", [
      "-n",
      NS,
      "get",
      "deploy",
      "verdict-all-in-one",
      "-o",
      "jsonpath={.spec.template.spec.containers[0].image}",
    ]);
    expect(image).toBe(`verdict:${UPGRADE_TAG}`);
    expect((await api(`/evaluations/${evaluationId}`)).body).toMatchObject({ status: "completed" });

    const [history] = documented("helm history verdict -n verdict");
    const revisions = await run(history!);
    expect(revisions).toMatch(/^1\s.*superseded/im);
    expect(revisions).toMatch(/^2\s.*deployed/im);

    const [rollback] = documented("helm rollback verdict <revision> -n verdict --wait");
    await run(rollback!.replace("<revision>", "1"), ["--timeout", "6m"], 420_000);
    await serving();
    const back = await sh("kubectl", [
      "-n",
      NS,
      "get",
      "deploy",
      "verdict-all-in-one",
      "-o",
      "jsonpath={.spec.template.spec.containers[0].image}",
    ]);
    expect(back).toBe(`verdict:${IMAGE_TAG}`);
    expect((await api(`/evaluations/${evaluationId}`)).body).toMatchObject({ status: "completed" });
    // The operator key still works: the Secret and the store were kept.
    expect((await api("/health/auth")).status).toBe(200);
  }, 900_000);

  it("creates the distributed install's Secrets with the guide's kubectl commands, and the chart renders its production values", async () => {
    const secrets = documented(`kubectl -n verdict create secret generic`);
    expect(secrets).toHaveLength(2);
    for (const command of secrets) await run(command);
    const keys = await sh("kubectl", ["-n", NS, "get", "secret", "verdict-keys", "-o", "jsonpath={.data}"]);
    expect(Object.keys(JSON.parse(keys) as object).sort()).toEqual([
      "bootstrap-api-key",
      "report-private-key",
      "report-signing-key",
      "webhook-master-key",
    ]);
    const [production] = documented(
      "helm install verdict charts/verdict -n verdict -f charts/verdict/ci/production-values.yaml",
    );
    // Rendered against the cluster's API (`--dry-run=server`): the external MongoDB and Kafka the
    // values point at do not exist here.
    const out = await run(production!.replace("helm install verdict", "helm install verdict-production"), [
      "--dry-run=server",
    ]);
    expect(out).toMatch(/kind: Deployment/);
    expect(out).toMatch(/name: verdict-production-gateway/);
  }, 180_000);

  it("uninstalls; the claim and the key Secret stay (resource-policy keep)", async () => {
    await sh("helm", ["-n", NS, "uninstall", "verdict", "--wait", "--timeout", "3m"]);
    const left = await sh("kubectl", [
      "-n",
      NS,
      "get",
      "pvc,secret",
      "-l",
      "app.kubernetes.io/instance=verdict",
      "-o",
      "name",
    ]);
    expect(left.trim().split("\n").sort()).toEqual([
      "persistentvolumeclaim/verdict-all-in-one",
      "secret/verdict-secrets",
    ]);
  }, 240_000);
});
