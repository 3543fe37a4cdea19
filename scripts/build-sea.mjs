#!/usr/bin/env node
// Builds the `verdict` command as one executable file for Linux x64 with Node.js's single
// executable applications (SEA): a copy of this Node.js with the CLI injected into it, which runs
// where no Node.js is installed.
//
//   node scripts/build-sea.mjs [--out DIR]     # prints the executable's path (default DIR: .)
//
// Node.js 24 has --experimental-sea-config (no --build-sea), and an injected main script is one
// CommonJS file that can require only Node's built-in modules. So: esbuild bundles libs/cli with
// every dependency into one CommonJS file; the native addons (RE2, ast-grep and its parsers) go in
// as SEA assets, loaded with process.dlopen from a file written on first use (scripts/sea/native.mjs);
// `node --experimental-sea-config` writes the blob and postject injects it into the copy.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { inject } from "postject";
import { CLI_DIR, ROOT, readJson, stripDebug, workspacePackages, workspaceSource, writeVersion } from "./pack-cli.mjs";

/** The fuse Node.js looks for to know that a blob was injected (Node.js's documentation on SEA). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const NATIVE = join(ROOT, "scripts/sea/native.mjs");
/** The entry: it makes V8's start-up snapshot at build time and runs the command line from it. */
const SNAPSHOT_ENTRY = join(ROOT, "scripts/sea/snapshot.mjs");
/** Where the engine's native packages are installed. */
const EVALUATION = join(ROOT, "services/evaluation");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** The SEA assets: name -> file (a copy in `stage`, debug symbols stripped), filled while bundling. */
function assetTable(stage) {
  const assets = new Map();
  mkdirSync(join(stage, "assets"));
  return {
    assets,
    /** Adds a native file; returns the arguments native.mjs takes for it (name, sha256, size), as source. */
    add(name, from) {
      const file = join(stage, "assets", name);
      copyFileSync(from, file);
      stripDebug(file);
      const bytes = readFileSync(file);
      assets.set(name, file);
      const sha = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
      return `${JSON.stringify(name)}, ${JSON.stringify(sha)}, ${bytes.length}`;
    },
  };
}

/** esbuild: the workspace's packages (@verdict/…) from their sources. */
function workspaceSources(packages) {
  return {
    name: "verdict-workspace",
    setup(b) {
      b.onResolve({ filter: /^@verdict\// }, (args) => {
        const source = workspaceSource(packages, args.path);
        return source ? { path: source } : undefined;
      });
    },
  };
}

/**
 * The built-in policies resolved as `evaluate --offline` runs them without a pulled set
 * (libs/cli/src/builtinPolicies.ts's builtinResolution()), as JSON: made here, once, by the same
 * sources, and parsed at run time (provideBuiltinResolution() in scripts/sea/snapshot.mjs).
 */
async function builtinResolutionJson(stage, packages) {
  const script = join(stage, "builtin-resolution.cjs");
  const source = JSON.stringify(join(CLI_DIR, "src/builtinPolicies.ts"));
  await build({
    stdin: {
      contents: `import { builtinResolution } from ${source};
builtinResolution().then((r) => process.stdout.write(JSON.stringify(r)));`,
      resolveDir: ROOT,
      loader: "ts",
    },
    outfile: script,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node24",
    logLevel: "error",
    plugins: [workspaceSources(packages)],
  });
  return execFileSync(process.execPath, [script], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

/** Bundles the CLI and everything it imports into one CommonJS file; native code becomes assets. */
async function bundle(outfile, table, version, builtins) {
  const packages = workspacePackages();
  const evaluation = createRequire(join(EVALUATION, "package.json"));
  const native = JSON.stringify(NATIVE);
  const sea = {
    name: "verdict-sea",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const source = workspaceSource(packages, args.path);
        if (source) return { path: source };
        // ast-grep's loader picks its addon package by platform: this build is for linux-x64-gnu.
        if (args.path === "@ast-grep/napi" || args.path.startsWith("@ast-grep/lang-"))
          return { path: args.path, namespace: "sea-native" };
        return undefined;
      });
      // RE2's re2.js requires its addon: the addon becomes an asset.
      b.onResolve({ filter: /\.node$/ }, (args) => ({
        path: resolve(args.resolveDir, args.path),
        namespace: "sea-addon",
      }));
      const resolveDir = dirname(NATIVE);
      b.onLoad({ filter: /.*/, namespace: "sea-addon" }, (args) => ({
        contents: `module.exports = require(${native}).loadAddon(${table.add(args.path.split("/").at(-1), args.path)});`,
        loader: "js",
        resolveDir,
      }));
      b.onLoad({ filter: /.*/, namespace: "sea-native" }, (args) => {
        if (args.path === "@ast-grep/napi") {
          const napi = createRequire(evaluation.resolve("@ast-grep/napi"));
          const addon = napi.resolve("@ast-grep/napi-linux-x64-gnu");
          return {
            contents: `module.exports = require(${native}).loadAddon(${table.add("ast-grep-napi.node", addon)});`,
            loader: "js",
            resolveDir,
          };
        }
        // A parser package: its fields, and its prebuilt parser for Linux x64 as an asset.
        const lang = args.path.slice("@ast-grep/lang-".length);
        const main = evaluation.resolve(args.path);
        const { extensions, languageSymbol, expandoChar } = evaluation(args.path);
        const parser = join(dirname(main), "prebuilds/prebuild-Linux-X64/parser.so");
        return {
          contents: `const { nativeFile } = require(${native});
module.exports = {
  get libraryPath() { return nativeFile(${table.add(`ast-grep-lang-${lang}.so`, parser)}); },
  extensions: ${JSON.stringify(extensions)},
  languageSymbol: ${JSON.stringify(languageSymbol)},
  expandoChar: ${JSON.stringify(expandoChar)},
};`,
          loader: "js",
          resolveDir,
        };
      });
      // The snapshot's built-in policies, resolved when this file was built (builtinResolutionJson()).
      b.onResolve({ filter: /^verdict-sea:builtin-resolution$/ }, (args) => ({
        path: args.path,
        namespace: "sea-builtins",
      }));
      b.onLoad({ filter: /.*/, namespace: "sea-builtins" }, () => ({
        contents: `module.exports = ${JSON.stringify(builtins)};`,
        loader: "js",
      }));
      writeVersion(b, version); // (first: it replaces version.ts)
      // Packages loaded with createRequire(import.meta.url)("name") so that they load only when
      // used: plain require() calls here, which esbuild bundles (still run only when used).
      b.onLoad({ filter: /\/(libs|services)\/[^/]+\/src\/.*\.ts$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        return {
          contents: text.replace(/createRequire\(import\.meta\.url\)\(\s*("[^".][^"]*")\s*\)/g, "require($1)"),
          loader: "ts",
        };
      });
    },
  };
  await build({
    entryPoints: [SNAPSHOT_ENTRY],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node24",
    // What is left of import.meta.url (createRequire for Node's built-ins): the executable.
    define: { "import.meta.url": "__verdict_url" },
    banner: { js: 'const __verdict_url = require("node:url").pathToFileURL(process.execPath).href;' },
    logLevel: "error",
    // Comments and layout out: a smaller source for the start-up snapshot to hold and read back
    // (and all of it ASCII, one byte a character), a few ms of each run. Names stay as they are.
    minifyWhitespace: true,
    plugins: [sea],
  });
}

export async function buildSea(outDir) {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`the single executable is built for Linux x64 (this is ${process.platform}-${process.arch})`);
  const version = readJson(join(CLI_DIR, "package.json")).version;
  const stage = mkdtempSync(join(tmpdir(), "verdict-sea-"));
  try {
    const table = assetTable(stage);
    const main = join(stage, "verdict.cjs");
    await bundle(main, table, version, await builtinResolutionJson(stage, workspacePackages()));
    const blob = join(stage, "verdict.blob");
    const config = {
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      // The bundle run at build time (snapshot.mjs) and its heap saved: each run starts from it
      // instead of loading and initializing the CLI's modules again.
      useSnapshot: true,
      assets: Object.fromEntries(table.assets),
    };
    writeFileSync(join(stage, "sea-config.json"), JSON.stringify(config, null, 2));
    execFileSync(process.execPath, ["--experimental-sea-config", join(stage, "sea-config.json")], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    mkdirSync(outDir, { recursive: true });
    const out = join(outDir, "verdict");
    rmSync(out, { force: true });
    copyFileSync(realpathSync(process.execPath), out);
    chmodSync(out, 0o755);
    await inject(out, "NODE_SEA_BLOB", readFileSync(blob), { sentinelFuse: SEA_FUSE });
    return out;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildSea(resolve(option("--out", ".")));
  process.stdout.write(out + "\n");
}
