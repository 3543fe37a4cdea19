// The real-code corpus: popular packages as published, pinned tarballs from npm and sdists from
// PyPI, each unpacked under <cache>/corpus/<name>@<version>/ (fetched once, then read from the
// cache). About 105 MB of a compiler, bundler, web frameworks and ORMs: code no one should be
// alerted on. (prisma and sqlalchemy, another 110 MB, made one gitleaks run take over 8 minutes on
// the shared 2-core machine; the corpus stays at a size a rule author can rerun.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachePath, note, pypiSdist, run } from "./cache.mjs";

export const NPM_PACKAGES = [
  ["typescript", "5.9.3"],
  ["react-dom", "19.3.1"],
  ["express", "5.3.0"],
  ["lodash", "4.18.1"],
  ["@angular/core", "22.2.6"],
  ["sequelize", "6.37.8"],
  ["webpack", "5.112.2"],
];
export const PYPI_PACKAGES = [
  ["django", "6.1.3"],
  ["requests", "2.34.2"],
  ["flask", "3.1.3"],
];

export const CORPUS_DIR = cachePath("corpus");

/** What identifies the corpus (for cached results of other tools on it). */
export const CORPUS_KEY = [...NPM_PACKAGES, ...PYPI_PACKAGES].map(([n, v]) => `${n}@${v}`).join(" ");

const dirName = (name, version) => `${name.replace("/", "__")}@${version}`;

function fetchNpm(name, version, target) {
  const work = mkdtempSync(join(tmpdir(), "verdict-corpus-"));
  try {
    const tarball = run("npm", ["pack", `${name}@${version}`, "--silent"], { cwd: work })
      .trim()
      .split("\n")
      .pop();
    mkdirSync(join(work, "out"));
    run("tar", ["xzf", join(work, tarball), "-C", join(work, "out")]);
    renameSync(join(work, "out", "package"), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function fetchPypi(name, version, target) {
  const work = mkdtempSync(join(tmpdir(), "verdict-corpus-"));
  try {
    renameSync(pypiSdist(name, version, work), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The corpus directory, every pinned package unpacked in it; packages not pinned are removed. */
export function realCorpus() {
  mkdirSync(CORPUS_DIR, { recursive: true });
  const wanted = new Set();
  for (const [list, fetch] of [
    [NPM_PACKAGES, fetchNpm],
    [PYPI_PACKAGES, fetchPypi],
  ]) {
    for (const [name, version] of list) {
      const dir = dirName(name, version);
      wanted.add(dir);
      const target = join(CORPUS_DIR, dir);
      if (existsSync(target)) continue;
      note(`corpus: fetching ${name} ${version}`);
      fetch(name, version, target);
    }
  }
  for (const entry of readdirSync(CORPUS_DIR))
    if (!wanted.has(entry)) rmSync(join(CORPUS_DIR, entry), { recursive: true, force: true });
  return CORPUS_DIR;
}
