#!/usr/bin/env node
// The `verdict` command's entry. V8's compile cache first (Node's own: code compiled by an
// earlier run is read back instead of compiled again; NODE_COMPILE_CACHE=DIR moves it from
// <tmpdir>/node-compile-cache, NODE_DISABLE_COMPILE_CACHE=1 turns it off), then the command,
// imported after it so that every module the command loads goes through the cache.
import { enableCompileCache } from "node:module";

enableCompileCache();
void import("./main.js").then((m) => m.run());
