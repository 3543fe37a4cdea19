// Inside the single executable (scripts/build-sea.mjs): the native addons travel as SEA assets and
// are loaded from a file, since dlopen needs one. Each is written once, named by its SHA-256, into
// the first directory this user can write: $XDG_CACHE_HOME/verdict/native (~/.cache/verdict/native),
// else a directory of this user's own in the system's temporary directory.
import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { getAsset } from "node:sea";

function candidates() {
  const out = [];
  const home = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : "");
  if (home) out.push(join(home, "verdict", "native"));
  out.push(join(tmpdir(), `verdict-native-${process.getuid ? process.getuid() : "user"}`));
  return out;
}

/** mkdir -p, one level at a time (Node's recursive mkdir does not return on some paths, e.g. under /proc). */
function makeDirectories(dir) {
  const parent = dirname(dir);
  if (parent !== dir && !existsSync(parent)) makeDirectories(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
}

/** A directory only this user can write (a shared temporary directory could hold another user's). */
function ownDirectory(dir) {
  makeDirectories(dir);
  const st = lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0)
    throw new Error(`${dir} is not a directory of this user's only`);
  return dir;
}

const written = new Map();

/** The path of asset `name` (content `sha256`, `size` bytes) on disk, written there the first time. */
export function nativeFile(name, sha256, size) {
  const key = `${sha256}-${name}`;
  if (written.has(key)) return written.get(key);
  const errors = [];
  for (const candidate of candidates()) {
    try {
      const dir = ownDirectory(candidate);
      const file = join(dir, key);
      if (!existsSync(file) || statSync(file).size !== size) {
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, new Uint8Array(getAsset(name)), { mode: 0o500 });
        chmodSync(partial, 0o500);
        renameSync(partial, file);
      }
      written.set(key, file);
      return file;
    } catch (err) {
      errors.push(`${candidate}: ${err.message}`);
    }
  }
  throw new Error(`no directory to write the native addon ${name} to (${errors.join("; ")})`);
}

/** Loads a Node.js addon carried as an asset. */
export function loadAddon(name, sha256, size) {
  const module = { exports: {} };
  process.dlopen(module, nativeFile(name, sha256, size));
  return module.exports;
}
