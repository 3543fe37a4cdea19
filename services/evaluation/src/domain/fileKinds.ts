// Files the engine does not scan: they are counted as skipped, never silently ignored.
// Lock files are generated and full of hashes (noise, never secrets a person wrote), minified
// bundles and source maps are generated too, and binary files are not text.

export type SkipReason = "removed" | "lockfile" | "minified" | "sourcemap" | "binary" | "excluded";

const LOCKFILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "cargo.lock",
  "poetry.lock",
  "pipfile.lock",
  "uv.lock",
  "gemfile.lock",
  "composer.lock",
  "go.sum",
  "packages.lock.json",
  "podfile.lock",
  "mix.lock",
  "pubspec.lock",
  "flake.lock",
]);

const MINIFIED = /\.min\.(?:js|mjs|cjs|css)$|[.-]bundle\.min\./i;
// Minified code without the .min name: long lines on average in a file of some size.
const MINIFIED_MIN_BYTES = 4096;
const MINIFIED_AVG_LINE = 1000;
const BINARY_SNIFF_BYTES = 8000;

export function baseName(path: string): string {
  const i = path.lastIndexOf("/");
  return (i === -1 ? path : path.slice(i + 1)).toLowerCase();
}

export function skipReason(path: string, content: Buffer, lineCount: () => number): SkipReason | undefined {
  if (LOCKFILES.has(baseName(path))) return "lockfile";
  // A NUL byte in the first 8 KB is how git and ripgrep tell binary files apart.
  if (content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return "binary";
  if (MINIFIED.test(path)) return "minified";
  // Source maps repeat the bundled sources: every finding would be reported twice.
  if (/\.(?:js|mjs|cjs|css)\.map$/i.test(path)) return "sourcemap";
  if (
    /\.(?:js|mjs|cjs|css)$/i.test(path) &&
    content.length >= MINIFIED_MIN_BYTES &&
    content.length / lineCount() > MINIFIED_AVG_LINE
  )
    return "minified";
  return undefined;
}
