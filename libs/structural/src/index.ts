// What the policy service (a custom structural rule checked before it is stored) and the
// evaluation service (the engine) share about ast-grep: the languages structural rules are written
// for, ast-grep's name of each, and the parsers it does not bundle, loaded once per thread.
// ast-grep's addon itself loads on first use (astGrep()), not with this module: the CLI's single
// executable keeps the engine's modules initialized in its start-up snapshot, which cannot hold a
// native addon, and a change without a file of these languages never needs it.
import { createRequire } from "node:module";
import type * as Napi from "@ast-grep/napi";
import csharp from "@ast-grep/lang-csharp";
import go from "@ast-grep/lang-go";
import java from "@ast-grep/lang-java";
import kotlin from "@ast-grep/lang-kotlin";
import php from "@ast-grep/lang-php";
import python from "@ast-grep/lang-python";
import ruby from "@ast-grep/lang-ruby";

/** The languages structural rules are written for (the API's `language` values; proto/verdict/policy/v1/policy.proto lists them too). */
export const STRUCTURAL_LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "java",
  "go",
  "ruby",
  "php",
  "csharp",
  "kotlin",
] as const;
export type StructuralLanguage = (typeof STRUCTURAL_LANGUAGES)[number];

let napi: typeof Napi | undefined;

/** @ast-grep/napi, loaded on the first call. */
export const astGrep = (): typeof Napi => (napi ??= createRequire(import.meta.url)("@ast-grep/napi") as typeof Napi);

/** ast-grep's names: the bundled languages by their Lang value (napi's Lang enum), the others as registerLanguages() names them. */
export const PARSER: Readonly<Record<StructuralLanguage, string>> = {
  python: "python",
  javascript: "JavaScript",
  typescript: "TypeScript",
  tsx: "Tsx",
  java: "java",
  go: "go",
  ruby: "ruby",
  php: "php",
  csharp: "csharp",
  kotlin: "kotlin",
};

let registered = false;

/** Loads the parsers ast-grep does not bundle (shared libraries, prebuilt), once per thread. */
export function registerLanguages(): void {
  if (registered) return;
  astGrep().registerDynamicLanguage({ python, java, go, ruby, php, csharp, kotlin });
  registered = true;
}
