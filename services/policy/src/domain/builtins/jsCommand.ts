// Node's child_process given a program chosen by request input (command-injection): execFile,
// execFileSync, spawn, spawnSync and fork run the program (or module) named by their first
// argument; when input names it, the caller runs whatever program the input names. Sources are
// Express/Koa request input and the `url` of a Node `http` request (the path and query string).
import {
  type BuiltinPattern,
  firstArgument,
  JS_REQUEST_KEYWORDS,
  JS_REQUEST_SOURCES,
  JS_SANITIZERS,
  structural,
} from "./types.js";

const PROGRAM_CALLS = ["execFile", "execFileSync", "spawn", "spawnSync", "fork"];

export const JS_PROGRAM_FROM_REQUEST: BuiltinPattern = {
  id: "js-program-from-request",
  type: "structural",
  value: structural(
    ["javascript", "typescript", "tsx"],
    { any: firstArgument([...PROGRAM_CALLS, ...PROGRAM_CALLS.map((c) => `$CP.${c}`)], "PROGRAM") },
    undefined,
    {
      sink: "PROGRAM",
      sources: [
        ...JS_REQUEST_SOURCES,
        { kind: "member_expression", regex: String.raw`^(?:req|request)\.(?:url|originalUrl)$` },
      ],
      sanitizers: JS_SANITIZERS,
    },
  ),
  message:
    "A program to run (execFile, spawn, fork) is chosen by request input (it reaches the call within the function)",
  keywords: [...JS_REQUEST_KEYWORDS, "req.url"],
  file_requires: [String.raw`child_process`],
};
