/**
 * The 1-based line numbers of the new file that a unified diff adds. GitHub's `patch` on a pull
 * request's files and GitLab's `diff` on a merge request's changes are both the hunks of one
 * file, without the `---`/`+++` header; a header, if present, is skipped.
 */
export function addedLines(patch: string): number[] {
  const added: number[] = [];
  let next = 0;
  let inHunk = false;
  for (const line of patch.split("\n")) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      next = Number(hunk[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk) continue;
    if (line.startsWith("+")) added.push(next++);
    else if (line.startsWith(" ")) next++;
    // "-" lines are the old file's and "\ No newline at end of file" is neither's.
  }
  return added;
}
