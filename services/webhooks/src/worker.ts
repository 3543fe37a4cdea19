// The delivery worker: sleeps until a message is due (or it is woken), claims due messages and
// attempts them a few at a time. It holds no state of its own: everything is in the store, so
// a restart resumes exactly where the last process stopped.
import type { WebhookDeps } from "./deps.js";
import { attemptDelivery } from "./usecases/attemptDelivery.js";
import { claimDue } from "./usecases/claimDue.js";
import { nextDueAt } from "./usecases/nextDueAt.js";

export interface WorkerOptions {
  /** Messages attempted at once. */
  concurrency: number;
  /** Messages of one organization attempted at once (fairness between organizations). */
  perOrgConcurrency?: number;
  /** Longest sleep between looks at the store (other processes may have queued messages). */
  pollIntervalMs: number;
}

export class DeliveryWorker {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  /** A wake that came while the loop was busy: the next sleep returns at once. */
  private woken = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightByOrg = new Map<string, number>();

  constructor(
    private readonly deps: WebhookDeps,
    private readonly opts: WorkerOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A message became due now: stop sleeping. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming, and waits for the attempts under way (each is bounded by the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const free = this.opts.concurrency - this.inFlight.size;
        this.woken = false;
        const claimed =
          free > 0
            ? await claimDue(this.deps, {
                limit: free,
                perOrg: this.opts.perOrgConcurrency ?? Infinity,
                inFlight: this.inFlightByOrg,
              })
            : [];
        for (const delivery of claimed) {
          const org = delivery.organization_id;
          this.inFlightByOrg.set(org, (this.inFlightByOrg.get(org) ?? 0) + 1);
          const p = attemptDelivery(this.deps, { delivery })
            .catch((err) =>
              this.deps.logger.error(
                { err, delivery_id: delivery.id },
                "webhook attempt failed unexpectedly; its lease will expire and it will be retried",
              ),
            )
            .finally(() => {
              this.inFlight.delete(p);
              const left = (this.inFlightByOrg.get(org) ?? 1) - 1;
              if (left > 0) this.inFlightByOrg.set(org, left);
              else this.inFlightByOrg.delete(org);
              this.wake();
            });
          this.inFlight.add(p);
        }
        if (claimed.length && claimed.length === free) continue;
        await this.sleep(await this.sleepMs());
      } catch (err) {
        this.deps.logger.error({ err }, "webhook worker could not read the store; retrying");
        await this.sleep(this.opts.pollIntervalMs);
      }
    }
  }

  private async sleepMs(): Promise<number> {
    if (this.inFlight.size >= this.opts.concurrency) return this.opts.pollIntervalMs;
    const next = await nextDueAt(this.deps);
    if (!next) return this.opts.pollIntervalMs;
    return Math.max(10, Math.min(this.opts.pollIntervalMs, next.getTime() - this.deps.clock.now().getTime()));
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(this.timer);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
      this.timer = setTimeout(done, ms);
    });
  }
}
