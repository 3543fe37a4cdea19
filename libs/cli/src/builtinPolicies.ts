// The policy library (@verdict/policy/offline), loaded on first use, and the built-in policies as
// `evaluate --offline` runs them without a pulled policy set: resolved once per process. The
// single executable gets that resolution made at build time, as JSON (provideBuiltinResolution(),
// scripts/sea/snapshot.mjs), so its start-up snapshot holds neither the library nor the resolved
// policies' objects: reading them back took about 40 ms of every run, parsing the JSON takes 5.
type Library = typeof import("@verdict/policy/offline");
type EffectivePolicy = ReturnType<Library["effectiveFromListed"]>[number];
/** The policies an evaluation runs, and their version (resolveEffective()). */
export type Resolution = ReturnType<Library["resolveEffective"]>;

let library: Promise<Library> | undefined;
let provided: (() => Resolution) | undefined;
let effective: Promise<readonly EffectivePolicy[]> | undefined;
let resolved: Promise<Resolution> | undefined;

/** The policy library: the built-in definitions, effective views, resolution and version. */
export const policyLibrary = (): Promise<Library> => (library ??= import("@verdict/policy/offline"));

/** The built-ins as a new organization has them (effectiveFromListed() of nothing). */
export const builtinEffective = (): Promise<readonly EffectivePolicy[]> =>
  (effective ??= policyLibrary().then((l) => l.effectiveFromListed()));

/** Every enabled built-in, resolved, and their version: what an evaluation of a new organization runs. */
export const builtinResolution = (): Promise<Resolution> =>
  (resolved ??= provided
    ? Promise.resolve(provided())
    : Promise.all([policyLibrary(), builtinEffective()]).then(([l, all]) => l.resolveEffective(all)));

/** Makes builtinResolution() answer `make()` (the single executable: the resolution made when it was built). */
export function provideBuiltinResolution(make: () => Resolution): void {
  provided = make;
  resolved = undefined;
}
