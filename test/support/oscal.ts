// Runs NIST's liboscal-java (the library oscal-cli is built on) over OSCAL files: Metaschema
// constraint validation of OSCAL 1.1.2. Installed by scripts/install-oscal-tools.sh. And
// compliance-trestle (PyPI), whose OSCAL models parse and check each document: installed by
// scripts/install-test-tools.sh into .tools/trestle (or $VERDICT_TRESTLE_VENV).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export const OSCAL_SCHEMAS = join(ROOT, ".tools/oscal/schemas");

const run = promisify(execFile);

/** Asynchronous, so the caller's event loop (its HTTP keep-alive timers) keeps running. */
export async function validateWithLiboscal(files: string[]): Promise<{ ok: boolean; output: string }> {
  const lib = join(ROOT, ".tools/oscal/lib");
  if (!existsSync(lib)) throw new Error("OSCAL tools missing: run bash scripts/install-oscal-tools.sh");
  const args = ["-cp", `${lib}/*`, join(ROOT, "test/oscal/OscalValidate.java"), ...files];
  let stdout: string;
  let stderr: string;
  let ok = true;
  try {
    ({ stdout, stderr } = await run("java", args, {
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

/** The trestle command: in $VERDICT_TRESTLE_VENV, else .tools/trestle (as install-test-tools.sh puts it). */
export function trestleCommand(): string {
  const venv = process.env.VERDICT_TRESTLE_VENV || join(ROOT, ".tools/trestle");
  const bin = join(venv, "bin/trestle");
  if (!existsSync(bin)) throw new Error(`compliance-trestle missing (${bin}): run bash scripts/install-test-tools.sh`);
  return bin;
}

/** Where a trestle workspace keeps each OSCAL model (folder and file name). */
const TRESTLE_MODEL = {
  catalog: "catalogs",
  "assessment-results": "assessment-results",
  "plan-of-action-and-milestones": "plan-of-action-and-milestones",
} as const;
export type TrestleModel = keyof typeof TRESTLE_MODEL;

interface RunResult {
  ok: boolean;
  output: string;
}

/**
 * A trestle workspace (`trestle init`) in a temp folder: `validate` writes a document where
 * trestle expects its model and runs `trestle validate -f FILE` on it.
 */
export async function trestleWorkspace() {
  const bin = trestleCommand();
  const dir = mkdtempSync(join(tmpdir(), "trestle-"));
  await run(bin, ["init"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  const runTrestle = async (args: string[]): Promise<RunResult> => {
    try {
      const { stdout, stderr } = await run(bin, args, { cwd: dir, encoding: "utf8", timeout: 300_000 });
      return { ok: true, output: `${stdout}${stderr}` };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? e.message}` };
    }
  };
  return {
    dir,
    async validate(model: TrestleModel, name: string, doc: unknown): Promise<RunResult> {
      const file = join(TRESTLE_MODEL[model], name, `${model}.json`);
      mkdirSync(join(dir, TRESTLE_MODEL[model], name), { recursive: true });
      writeFileSync(join(dir, file), JSON.stringify(doc));
      return runTrestle(["validate", "-f", file]);
    },
    /**
     * Writes every document where trestle expects its model and runs one `trestle validate -a`
     * over them all (one Python start for many documents).
     */
    async validateAll(docs: { model: TrestleModel; name: string; doc: unknown }[]): Promise<RunResult> {
      for (const d of docs) {
        mkdirSync(join(dir, TRESTLE_MODEL[d.model], d.name), { recursive: true });
        writeFileSync(join(dir, TRESTLE_MODEL[d.model], d.name, `${d.model}.json`), JSON.stringify(d.doc));
      }
      return runTrestle(["validate", "-a"]);
    },
    destroy: () => rmSync(dir, { recursive: true, force: true }),
  };
}
