// The files of queued (asynchronous) evaluations, from the request that queued them to the end of
// their scan. One metadata document per file in the store (the index the recovery sweep reads);
// the contents either in that document (a shared store: every instance can take the work) or, when
// the service has a spool directory (the all-in-one process, whose embedded store is synchronous
// SQLite), in files of that directory, written, read and erased by libuv's thread pool: none of
// that work, proportional to an organization's body, runs on the thread that answers every
// organization, and nothing of it goes through the SQLite file or its WAL.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EvaluationRepo, JobFile } from "./repo.js";
import type { FileToScan } from "./domain/evaluation.js";

/** Owner-only, as the store's own files: queued contents may hold secrets. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** Overwrites a spooled file before it is unlinked in writes of this size. */
const ERASE_CHUNK = 1024 * 1024;

export class JobFiles {
  constructor(
    private readonly repo: EvaluationRepo,
    /** Where contents go; undefined keeps them in the store's documents. */
    private readonly spoolDir?: string,
  ) {}

  async init(): Promise<void> {
    if (this.spoolDir) await mkdir(this.spoolDir, { recursive: true, mode: DIR_MODE });
  }

  private file(evaluationId: string, index: number): string {
    // Evaluation ids are generated here (newId): letters, digits and underscores only.
    if (!/^[A-Za-z0-9_]+$/.test(evaluationId)) throw new Error(`unexpected evaluation id ${evaluationId}`);
    return join(this.spoolDir!, `${evaluationId}.${index}`);
  }

  /** Persists an evaluation's files before the evaluation is stored (see createEvaluation). */
  async put(organizationId: string, evaluationId: string, createdAt: string, files: FileToScan[]): Promise<void> {
    for (const [index, f] of files.entries()) {
      if (this.spoolDir)
        // The request's own bytes (no copy, no conversion to text), written off the thread.
        await writeFile(this.file(evaluationId, index), f.content, { mode: FILE_MODE, flag: "wx" });
      const doc: JobFile = {
        id: `${evaluationId}:${index}`,
        evaluation_id: evaluationId,
        organization_id: organizationId,
        index,
        path: f.path,
        status: f.status,
        // Stored as text: documents are JSON in the embedded store and BSON strings in MongoDB.
        content: this.spoolDir ? "" : f.content.toString("utf8"),
        spooled: this.spoolDir !== undefined,
        created_at: createdAt,
      };
      await this.repo.addJobFile(doc);
    }
  }

  /** The files of an evaluation, in order; null when any of the `expected` ones is missing. */
  async load(evaluationId: string, expected: number): Promise<FileToScan[] | null> {
    const docs = await this.repo.jobFilesOf(evaluationId);
    if (docs.length !== expected) return null;
    const out: FileToScan[] = [];
    for (const d of docs) {
      if (!d.spooled) {
        out.push({ path: d.path, status: d.status, content: Buffer.from(d.content, "utf8") });
        continue;
      }
      if (!this.spoolDir) return null; // spooled by an instance with a spool directory: not readable here
      try {
        out.push({ path: d.path, status: d.status, content: await readFile(this.file(evaluationId, d.index)) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    }
    return out;
  }

  /** Drops an evaluation's files: documents deleted, spooled contents overwritten, then unlinked. */
  async drop(evaluationId: string): Promise<void> {
    await this.repo.dropJobFiles(evaluationId);
    if (!this.spoolDir) return;
    const prefix = `${evaluationId}.`;
    for (const name of await readdir(this.spoolDir))
      if (name.startsWith(prefix)) await erase(join(this.spoolDir, name));
  }

  /**
   * Spooled contents with no live evaluation (a crash between the writes, or during a drop),
   * erased at start-up; `live` holds the ids of the evaluations still pending.
   */
  async sweepSpool(live: ReadonlySet<string>): Promise<number> {
    if (!this.spoolDir) return 0;
    let n = 0;
    for (const name of await readdir(this.spoolDir)) {
      const id = name.slice(0, name.lastIndexOf("."));
      if (live.has(id)) continue;
      await erase(join(this.spoolDir, name));
      n++;
    }
    return n;
  }
}

/**
 * Overwrites a file with random bytes before unlinking it, so its contents do not stay readable
 * in the freed blocks (as far as the file system overwrites in place), as SQLite's secure_delete
 * does for the store's pages.
 */
async function erase(file: string): Promise<void> {
  let handle;
  try {
    handle = await open(file, "r+");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const noise = randomBytes(Math.min(ERASE_CHUNK, Math.max(size, 1)));
    for (let at = 0; at < size; at += noise.length) await handle.write(noise, 0, Math.min(noise.length, size - at), at);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rm(file, { force: true });
}
