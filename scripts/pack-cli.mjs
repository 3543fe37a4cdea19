#!/usr/bin/env node
// Packs the `verdict` command as a published-shape npm package: `npm install -g` of the tarball
// works on a machine with Node 24 and nothing else (no clone, no workspace, no pnpm).
//
//   node scripts/pack-cli.mjs [--out DIR]     # prints the tarball's path (default DIR: .)
//
// esbuild bundles libs/cli with the workspace packages it imports (@verdict/sdk, ...), from their
// sources, into dist/; every other import stays external and becomes a dependency of the package,
// pinned to the version this workspace installs and tests with (the versions come from the
// bundled packages' own manifests: an import no manifest declares fails the pack). Then `npm pack`.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_DIR = join(ROOT, "libs/cli");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

export const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** Every workspace package: name -> directory (libs/*, services/*). */
export function workspacePackages() {
  const out = new Map();
  for (const group of ["libs", "services"])
    for (const name of readdirSync(join(ROOT, group))) {
      try {
        out.set(readJson(join(ROOT, group, name, "package.json")).name, join(ROOT, group, name));
      } catch {
        // not a package
      }
    }
  return out;
}

/** `@scope/name/sub/path` or `name/sub` -> the package name. */
export const packageName = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** The workspace package directory a source file belongs to. */
function ownerOf(file, packages) {
  let best = null;
  for (const dir of packages.values())
    if (file.startsWith(dir + "/") && (!best || dir.length > best.length)) best = dir;
  return best;
}

/** The source file of a workspace import (`@verdict/sdk`, `@verdict/evaluation/offline`: src/offline.ts); null for others. */
export function workspaceSource(packages, specifier) {
  const name = packageName(specifier);
  const dir = packages.get(name);
  return dir ? join(dir, "src", `${specifier.slice(name.length + 1) || "index"}.ts`) : null;
}

/** In an esbuild plugin: the version written in (the module that reads it from ../package.json may land anywhere). */
export function writeVersion(b, version) {
  b.onLoad({ filter: /libs\/cli\/src\/version\.ts$/ }, () => ({
    contents: `export const VERSION = ${JSON.stringify(version)};\n`,
    loader: "ts",
  }));
}

/**
 * Bundles the CLI: workspace packages resolved to their sources (as the tests import them), npm
 * packages left external. Returns the external packages each bundled workspace package imports.
 */
async function bundle(outdir, packages, version) {
  const externals = new Map(); // package name -> the workspace package directory importing it
  const workspace = {
    name: "verdict-workspace",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const source = workspaceSource(packages, args.path);
        if (source) return { path: source };
        const name = packageName(args.path);
        const owner = ownerOf(args.importer, packages);
        if (!externals.has(name)) externals.set(name, owner);
        return { path: args.path, external: true };
      });
      writeVersion(b, version);
    },
  };
  const result = await build({
    // scanThread: the offline engine's thread (`scan history --offline`), a module of its own beside bin.js.
    entryPoints: { bin: join(CLI_DIR, "src/bin.ts"), scanThread: join(CLI_DIR, "src/scanThread.ts") },
    outdir,
    bundle: true,
    splitting: true, // dynamic imports (MCP, SARIF, login prompt) stay separate chunks, loaded when used
    format: "esm",
    platform: "node",
    target: "node24",
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    logLevel: "warning",
    plugins: [workspace],
  });
  // Packages loaded with createRequire(import.meta.url)("name") (so that they load only when
  // used) are not imports esbuild sees: find them in the bundled sources.
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = resolve(ROOT, input);
    const owner = ownerOf(file, packages);
    if (!owner) continue;
    for (const m of readFileSync(file, "utf8").matchAll(/createRequire\([^)]*\)\(\s*"([^".][^"]*)"\s*\)/g))
      if (!externals.has(packageName(m[1]))) externals.set(packageName(m[1]), owner);
  }
  return externals;
}

/** The exact version the workspace installs for `name`, as seen from the package that imports it. */
function pinnedVersion(name, owner) {
  const declared = readJson(join(owner, "package.json")).dependencies?.[name];
  if (!declared)
    throw new Error(
      `${relative(ROOT, owner)} imports ${name} but does not declare it in its package.json dependencies`,
    );
  // pnpm links each declared dependency into the package's own node_modules.
  for (let dir = owner; dir.startsWith(ROOT); dir = dirname(dir))
    if (existsSync(join(dir, "node_modules", name, "package.json")))
      return readJson(join(dir, "node_modules", name, "package.json")).version;
  throw new Error(`${name} (imported by ${relative(ROOT, owner)}) is not installed: run scripts/install.sh`);
}

/**
 * Addons npm cannot install on a machine with Node.js and nothing else: re2's installer downloads
 * a prebuilt addon from GitHub and otherwise compiles RE2 with node-gyp, which needs Node's
 * headers (from nodejs.org), Python and a C++ compiler. The package carries the addon this
 * workspace built instead (docs/install.md says for which platform), as a bundled dependency with
 * no install script. (@ast-grep's addons are npm packages per platform: ordinary dependencies.)
 */
const BUNDLED_ADDONS = { re2: ["re2.js", "re2.d.ts", "LICENSE", "build/Release/re2.node"] };

/** Strips an addon's debug symbols, most of RE2's file (24 MB -> 3 MB), when binutils is there. */
export function stripDebug(file) {
  try {
    execFileSync("strip", ["--strip-unneeded", file], { stdio: "ignore" });
  } catch {
    // kept as built
  }
}

function bundleAddon(stage, name, owner) {
  const from = realpathSync(join(owner, "node_modules", name));
  const to = join(stage, "node_modules", name);
  for (const file of BUNDLED_ADDONS[name]) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(from, file), join(to, file));
  }
  stripDebug(
    join(
      to,
      BUNDLED_ADDONS[name].find((f) => f.endsWith(".node")),
    ),
  );
  const { version, license, main } = readJson(join(from, "package.json"));
  writeFileSync(join(to, "package.json"), JSON.stringify({ name, version, license, main }, null, 2) + "\n");
}

const README = (version) => `# verdict ${version}

The command-line client of Verdict, the code policy evaluation service.

    npm install -g ./verdict-cli-${version}.tgz
    verdict --version
    VERDICT_URL=https://verdict.example.com VERDICT_API_KEY=vdt_key_... verdict evaluate --base origin/main

Needs Node.js 24 or later. Commands, configuration and exit codes: docs/cli.md in Verdict's
repository; installing: docs/install.md.
`;

export async function packCli(outDir) {
  const packages = workspacePackages();
  const cli = readJson(join(CLI_DIR, "package.json"));
  const stage = mkdtempSync(join(tmpdir(), "verdict-cli-pack-"));
  try {
    const externals = await bundle(join(stage, "dist"), packages, cli.version);
    chmodSync(join(stage, "dist/bin.js"), 0o755);
    const dependencies = Object.fromEntries(
      [...externals].sort(([a], [b]) => a.localeCompare(b)).map(([name, owner]) => [name, pinnedVersion(name, owner)]),
    );
    const bundled = Object.keys(dependencies).filter((name) => name in BUNDLED_ADDONS);
    for (const name of bundled) bundleAddon(stage, name, externals.get(name));
    const manifest = {
      name: cli.name,
      version: cli.version,
      description: "Verdict's command line: check code changes against policies, manage policies and evidence",
      type: "module",
      bin: { verdict: "dist/bin.js" },
      files: ["dist"],
      engines: readJson(join(ROOT, "package.json")).engines,
      dependencies,
      ...(bundled.length ? { bundleDependencies: bundled } : {}),
    };
    writeFileSync(join(stage, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    writeFileSync(join(stage, "README.md"), README(cli.version));
    mkdirSync(outDir, { recursive: true });
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", outDir], {
        cwd: stage,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    return join(outDir, packed[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tarball = await packCli(resolve(option("--out", ".")));
  process.stdout.write(tarball + "\n");
}
