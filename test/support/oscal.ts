// Runs NIST's liboscal-java (the library oscal-cli is built on) over OSCAL files: Metaschema
// constraint validation of OSCAL 1.1.2. Installed by scripts/install-oscal-tools.sh.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export const OSCAL_SCHEMAS = join(ROOT, ".tools/oscal/schemas");

/**
 * Asynchronous on purpose: a test's HTTP client must keep its event loop while Java runs, or it
 * reuses a keep-alive connection the server closed in the meantime.
 */
export async function validateWithLiboscal(files: string[]): Promise<{ ok: boolean; output: string }> {
  const lib = join(ROOT, ".tools/oscal/lib");
  if (!existsSync(lib)) throw new Error("OSCAL tools missing: run bash scripts/install-oscal-tools.sh");
  return new Promise((resolve) => {
    execFile("java", ["-cp", `${lib}/*`, join(ROOT, "test/oscal/OscalValidate.java"), ...files], { encoding: "utf8", timeout: 120_000 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`.split("\n").filter((l) => !l.includes("StatusLogger")).join("\n");
      resolve({ ok: !err, output });
    });
  });
}
