// Compiled engines, per organization and policy version. Compiling a set of a hundred patterns
// costs milliseconds; an evaluation of a small change takes less, so engines are reused. The
// key includes the version the policy service computes from everything the engine receives, so
// a stale engine is never used; policy.changed events only free memory early.
import { compileEngine, type Engine, type PolicyToRun } from "./domain/engine.js";

export class EngineCache {
  private readonly engines = new Map<string, Engine>();

  constructor(private readonly capacity = 64) {}

  get(organizationId: string, version: string, policies: readonly PolicyToRun[]): Engine {
    const key = `${organizationId}\0${version}`;
    let engine = this.engines.get(key);
    if (engine) {
      // Least recently used goes first: re-insert to mark as recent.
      this.engines.delete(key);
    } else {
      engine = compileEngine(policies);
      if (this.engines.size >= this.capacity) this.engines.delete(this.engines.keys().next().value!);
    }
    this.engines.set(key, engine);
    return engine;
  }

  forget(organizationId: string): void {
    for (const key of this.engines.keys()) if (key.startsWith(`${organizationId}\0`)) this.engines.delete(key);
  }

  get size(): number {
    return this.engines.size;
  }
}
