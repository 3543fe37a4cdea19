// A push's changed files from Gitea's per-commit lists (the compare API and the single-commit API
// list each commit's files as added, modified or removed, without a diff): one entry per path, net
// of the push's commits, so a file added then removed is removed and one removed then added again
// is modified.
import type { ChangedFile } from "../../domain/provider.js";

/** One commit as Gitea's API answers it with files=true. */
export interface GiteaCommitFiles {
  sha: string;
  files?: { filename: string; status: string }[] | null;
}

/** commits newest first (git log's order, as Gitea answers them); paths in their first appearance. */
export function netPushFiles(commits: GiteaCommitFiles[]): ChangedFile[] {
  const byPath = new Map<string, { first: string; last: string }>();
  for (const commit of [...commits].reverse()) {
    for (const f of commit.files ?? []) {
      const seen = byPath.get(f.filename);
      if (seen) seen.last = f.status;
      else byPath.set(f.filename, { first: f.status, last: f.status });
    }
  }
  return [...byPath].map(([path, { first, last }]) => ({
    path,
    status: last === "removed" ? "removed" : first === "added" ? "added" : "modified",
  }));
}
