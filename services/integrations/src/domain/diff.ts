// The lines a unified diff adds to each file, for placing line comments where the provider
// accepts them (Gitea's and GitLab's review comments sit on lines of the change).

/** path (the new name) -> 1-based line numbers of the new file that the diff adds. */
export function addedLinesByPath(diff: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let current: number[] | undefined;
  let line = 0;
  let inHunk = false;
  for (const text of diff.split("\n")) {
    if (text.startsWith("diff --git ")) {
      current = undefined;
      inHunk = false;
      continue;
    }
    if (!inHunk && text.startsWith("+++ ")) {
      const name = text.slice(4).trim();
      // "/dev/null" is the new side of a deletion: nothing added.
      current = name === "/dev/null" ? undefined : [];
      if (current) out.set(name.replace(/^b\//, ""), current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      line = Number(hunk[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk || !current) continue;
    if (text.startsWith("+")) current.push(line++);
    else if (text.startsWith(" ")) line++;
    else if (text.startsWith("-") || text.startsWith("\\")) continue;
    else inHunk = false;
  }
  return out;
}
