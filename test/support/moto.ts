// A real STS-compatible server for live verification's tests: moto's server mode (PyPI
// `moto[server]`, installed by scripts/install-test-tools.sh into .tools/moto, or
// $VERDICT_MOTO_VENV). It authenticates requests (after the first two actions, which make the IAM
// user and the access key it will know), checks their Signature Version 4 signatures, and answers
// STS GetCallerIdentity as AWS documents it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./gitea.js";
import { ROOT } from "./paths.js";

export interface Moto {
  url: string;
  /** Requests moto has answered so far (from its request log, written as each is answered). */
  requests(): number;
  /** Everything moto printed. */
  output(): string;
  /** The access key moto made in the beginning: an IAM user's, known to it. */
  known: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

/** The moto_server command: in $VERDICT_MOTO_VENV, else .tools/moto (as install-test-tools.sh puts it). */
export function motoServer(): string {
  const venv = process.env.VERDICT_MOTO_VENV || join(ROOT, ".tools/moto");
  const bin = join(venv, "bin/moto_server");
  if (!existsSync(bin)) throw new Error(`moto missing (${bin}): run bash scripts/install-test-tools.sh`);
  return bin;
}

// Moto finds the service a request is for in its credential scope; the first two actions are not
// authenticated (INITIAL_NO_AUTH_ACTION_COUNT), so their signature is not checked.
const IAM_SCOPE = "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260101/us-east-1/iam/aws4_request";

async function iam(url: string, action: string): Promise<string> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `${IAM_SCOPE}, SignedHeaders=host, Signature=0`,
    },
    body: `Action=${action}&UserName=ci-deployer&Version=2010-05-08`,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`moto IAM ${action}: ${res.status} ${text}`);
  return text;
}

export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const proc = spawn(motoServer(), ["-H", "127.0.0.1", "-p", String(port)], {
    env: { PATH: process.env.PATH ?? "", INITIAL_NO_AUTH_ACTION_COUNT: "2", PYTHONUNBUFFERED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const exited = new Promise<void>((res) => proc.once("exit", () => res()));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`moto exited: ${out}`);
    if (out.includes("Running on")) break;
    if (Date.now() > deadline) throw new Error(`moto did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await iam(url, "CreateUser");
  const key = await iam(url, "CreateAccessKey");
  const known = {
    accessKeyId: /<AccessKeyId>([^<]+)</.exec(key)![1]!,
    secretAccessKey: /<SecretAccessKey>([^<]+)</.exec(key)![1]!,
  };
  return {
    url,
    known,
    output: () => out,
    // Werkzeug colours a line by its status (escape codes inside the quotes).
    requests: () => out.split("\n").filter((l) => l.includes("POST / HTTP/1.1")).length,
    stop: async () => {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await exited;
    },
  };
}
