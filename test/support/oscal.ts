// Runs NIST's liboscal-java (the library oscal-cli is built on) over OSCAL files: Metaschema
// constraint validation of OSCAL 1.1.2. Installed by scripts/install-oscal-tools.sh.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export const OSCAL_SCHEMAS = join(ROOT, ".tools/oscal/schemas");

/** Asynchronous, so the caller's event loop (its HTTP keep-alive timers) keeps running. */
export async function validateWithLiboscal(files: string[]): Promise<{ ok: boolean; output: string }> {
  const lib = join(ROOT, ".tools/oscal/lib");
  if (!existsSync(lib)) throw new Error("OSCAL tools missing: run bash scripts/install-oscal-tools.sh");
  const args = ["-cp", `${lib}/*`, join(ROOT, "test/oscal/OscalValidate.java"), ...files];
  let stdout: string;
  let stderr: string;
  let ok = true;
  try {
    ({ stdout, stderr } = await promisify(execFile)("java", args, {
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    stdout = e.stdout ?? "";
    stderr = e.stderr ?? e.message;
    ok = false;
  }
  const output = `${stdout}${stderr}`
    .split("\n")
    .filter((l) => !l.includes("StatusLogger"))
    .join("\n");
  return { ok, output };
}
