import type { ResolvedPolicy } from "./domain/policy.js";

export interface Resolution {
  policies: ResolvedPolicy[];
  /** A digest of everything the engine receives: equal versions compile to equal engines. */
  version: string;
}

/**
 * Resolutions by the inputs they were computed from: the organization's stored records and the
 * requested ids (built-ins are code, fixed for the life of the process). Resolving is a pure
 * function of those inputs, so a hit is never stale, and every evaluation is spared turning the
 * whole library into patterns and hashing it. Least recently used entries go first.
 */
export class ResolutionCache {
  private readonly entries = new Map<string, Resolution>();

  constructor(private readonly capacity = 256) {}

  get(key: string): Resolution | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, resolution: Resolution): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, resolution);
  }
}
