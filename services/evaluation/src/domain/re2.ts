// RE2, the re2 package's native addon, loaded when the engine compiles its first expression rather
// than when the engine's modules load: the CLI's single executable keeps the engine's modules
// initialized in its start-up snapshot (scripts/sea/snapshot.mjs), and a snapshot cannot hold a
// native addon. Everything else is the re2 package as it is: `new RE2(…)`, `new RE2.Set(…)`.
import { createRequire } from "node:module";
import type RE2Constructor from "re2";

let loaded: typeof RE2Constructor | undefined;
/** The re2 package, loaded now if it was not yet (a machine it cannot load on throws here). */
export const loadRe2 = (): typeof RE2Constructor =>
  (loaded ??= createRequire(import.meta.url)("re2") as typeof RE2Constructor);
const load = loadRe2;

export const RE2 = new Proxy(function RE2() {}, {
  construct: (_target, args) => Reflect.construct(load(), args) as object,
  apply: (_target, self, args) => Reflect.apply(load(), self, args) as unknown,
  get: (_target, key) => Reflect.get(load(), key) as unknown,
}) as unknown as typeof RE2Constructor;
export type RE2 = RE2Constructor;
