// The built-in policy library as `evaluate --offline` runs it without a pulled policy set: made
// once per process, and in the single executable once at build time (its start-up snapshot,
// scripts/sea/snapshot.mjs), where resolving the 46 policies and hashing their version cost about
// 15 ms of each run. No native code here: the snapshot cannot hold any.
import { effectiveFromListed, resolveEffective } from "@verdict/policy/offline";

type EffectivePolicy = ReturnType<typeof effectiveFromListed>[number];

let effective: EffectivePolicy[] | undefined;
let resolved: ReturnType<typeof resolveEffective> | undefined;

/** The built-ins as a new organization has them (effectiveFromListed() of nothing). */
export const builtinEffective = (): readonly EffectivePolicy[] => (effective ??= effectiveFromListed());

/** The policies an evaluation of a new organization runs, every enabled built-in, and their version (resolveEffective()). */
export const builtinResolution = (): ReturnType<typeof resolveEffective> =>
  (resolved ??= resolveEffective(builtinEffective()));
