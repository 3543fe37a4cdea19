// Compiled engines, per policy version. Compiling a set of a hundred patterns costs tens of
// milliseconds; an evaluation of a small change takes less, so engines are reused. The key is
// the version the policy service computes from everything the engine receives (a SHA-256 digest
// of the resolved policies), so a stale engine is never used, and organizations whose policies
// resolve to the same content (the built-in ones, unchanged) share one engine per thread: a
// thread compiles the built-in set once, not once per organization. An engine holds nothing of an
// organization but that content; the findings' suppression setting comes with each job.
// policy.changed events only free memory early.
//
// The cache also remembers which version each (organization, requested policies) pair resolved
// to last, so the next evaluation can tell the policy service the version it holds and get an
// "unchanged" answer instead of every pattern again.
//
// Scanning runs on worker threads (scanPool.ts): there each thread keeps its compiled engines in
// an EngineCache, while the request thread keeps the same cache of the policies themselves
// (plain data, see policySets), which it hands to a worker with each job.
import { compileEngine, type Engine, type PolicyToRun } from "./domain/engine.js";

export interface CachedEngine<E = Engine> {
  engine: E;
  /** Ids of the policies the engine runs, in resolution order. */
  policyIds: string[];
  /** The policy version it was built from. */
  version: string;
}

/** The policies a version resolved to, as plain data: what the request thread keeps. */
export type PolicySet = readonly PolicyToRun[];

export class EngineCache<E = Engine> {
  private readonly engines = new Map<string, CachedEngine<E>>();
  private readonly latest = new Map<string, string>();

  constructor(
    private readonly capacity = 64,
    private readonly build: (policies: readonly PolicyToRun[]) => E = compileEngine as unknown as (
      policies: readonly PolicyToRun[],
    ) => E,
  ) {}

  /** The engine for this version, compiled from `policies` unless already cached. */
  get(version: string, policies: readonly PolicyToRun[]): CachedEngine<E> {
    return this.touch(version) ?? this.add(version, policies);
  }

  /** The cached engine for this version, if it is still cached. */
  peek(version: string): CachedEngine<E> | undefined {
    return this.touch(version);
  }

  /** The version the request resolved to last time (a hint for the policy service). */
  lastVersion(organizationId: string, requested: readonly string[]): string | undefined {
    return this.latest.get(requestKey(organizationId, requested));
  }

  remember(organizationId: string, requested: readonly string[], version: string): void {
    const key = requestKey(organizationId, requested);
    this.latest.delete(key);
    // A few request shapes per engine is plenty (all policies, or a CI job's fixed subset).
    if (this.latest.size >= this.capacity * 4) this.latest.delete(this.latest.keys().next().value!);
    this.latest.set(key, version);
  }

  /**
   * Forgets the versions an organization's requests resolved to, and their engines (another
   * organization still using one of those versions compiles it again at its next scan).
   */
  forget(organizationId: string): void {
    const prefix = `${organizationId}\0`;
    for (const [key, version] of this.latest)
      if (key.startsWith(prefix)) {
        this.latest.delete(key);
        this.engines.delete(version);
      }
  }

  get size(): number {
    return this.engines.size;
  }

  private touch(key: string): CachedEngine<E> | undefined {
    const hit = this.engines.get(key);
    if (hit) {
      // Least recently used goes first: re-insert to mark as recent.
      this.engines.delete(key);
      this.engines.set(key, hit);
    }
    return hit;
  }

  private add(version: string, policies: readonly PolicyToRun[]): CachedEngine<E> {
    const entry = { engine: this.build(policies), policyIds: policies.map((p) => p.id), version };
    if (this.engines.size >= this.capacity) this.engines.delete(this.engines.keys().next().value!);
    this.engines.set(version, entry);
    return entry;
  }
}

/** The request thread's cache: the policies of each version, compiled only in the workers. */
export function policySets(capacity = 64): EngineCache<PolicySet> {
  return new EngineCache<PolicySet>(capacity, (policies) => policies);
}

function requestKey(organizationId: string, requested: readonly string[]): string {
  return `${organizationId}\0${requested.join("\0")}`;
}
