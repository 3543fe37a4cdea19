// In-process Bus adapter for all-in-one: events are delivered asynchronously (never inside the
// publisher's call stack), each consumer group gets every event once, members of a group take
// turns, failures retry with exponential backoff and then go to the dead-letter topic. A group
// takes an event id once (a re-published event is skipped), as the Kafka adapter does.
//
// Deliveries share the thread with every request: they start in turns of the event loop, at most
// about DELIVERY_TURN_MS of handlers per turn, so the thousand events of one large evaluation
// (one per violation, each written to the store by a consumer) do not hold the thread for a
// fraction of a second while other organizations' requests wait; I/O is served between turns.
import { performance } from "node:perf_hooks";
import { busEvents, newId, type Logger } from "@verdict/kit";
import { SeenIds } from "./dedupe.js";
import {
  Redeliver,
  deadLetterTopic,
  type Bus,
  type CloudEvent,
  type Handler,
  type PublishInput,
  type SubscribeOptions,
  type Subscription,
} from "./port.js";

/** How long one turn of the event loop may spend starting deliveries (their synchronous part). */
const DELIVERY_TURN_MS = 2;

interface Member {
  handler: Handler<unknown>;
  maxAttempts: number;
}

interface Group {
  members: Member[];
  next: number;
  seen: SeenIds;
}

export class InProcessBus implements Bus {
  private readonly topics = new Map<string, Map<string, Group>>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries waiting for their turn, first come first served. */
  private readonly ready: (() => void)[] = [];
  private pumping = false;
  private closed = false;

  constructor(
    private readonly logger: Logger,
    private readonly retryBaseMs = 50,
  ) {}

  async publish<T>(topic: string, input: PublishInput<T>): Promise<CloudEvent<T>> {
    if (this.closed) throw new Error("bus is closed");
    const event: CloudEvent<T> = {
      specversion: "1.0",
      id: input.id ?? newId("evt"),
      source: input.source,
      type: topic,
      time: new Date().toISOString(),
      ...(input.subject ? { subject: input.subject } : {}),
      datacontenttype: "application/json",
      // A copy: consumers must not share objects with the publisher, as with a real broker.
      data: structuredClone(input.data),
    };
    busEvents.inc({ topic, outcome: "published" });
    for (const [name, group] of this.topics.get(topic) ?? []) {
      if (!group.members.length) continue;
      if (!group.seen.add(event.id)) {
        busEvents.inc({ topic, outcome: "duplicate" });
        continue;
      }
      const member = group.members[group.next++ % group.members.length]!;
      this.track(this.deliver(topic, name, member, event as CloudEvent<unknown>));
    }
    return event;
  }

  async subscribe<T>(
    topic: string,
    group: string,
    handler: Handler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    let groups = this.topics.get(topic);
    if (!groups) this.topics.set(topic, (groups = new Map()));
    let g = groups.get(group);
    if (!g) groups.set(group, (g = { members: [], next: 0, seen: new SeenIds() }));
    const member: Member = { handler: handler as Handler<unknown>, maxAttempts: options.maxAttempts ?? 5 };
    g.members.push(member);
    const owner = g;
    return {
      unsubscribe: async () => {
        owner.members = owner.members.filter((m) => m !== member);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Queues a delivery; it starts in a later turn of the event loop (see DELIVERY_TURN_MS). */
  private deliver(topic: string, group: string, member: Member, event: CloudEvent<unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      this.ready.push(
        () =>
          void this.handle(topic, group, member, event).then(resolve, (err: unknown) => {
            // Only dead-lettering can fail here (the bus closing meanwhile): said, not thrown.
            this.logger.error({ err, topic, group, event_id: event.id }, "event delivery failed");
            resolve();
          }),
      );
      if (this.pumping) return;
      this.pumping = true;
      setImmediate(() => this.pump());
    });
  }

  /**
   * Starts queued deliveries until this turn has spent DELIVERY_TURN_MS in them, then yields: an
   * immediate set from here runs in the next turn, after the I/O that is ready.
   */
  private pump(): void {
    const until = performance.now() + DELIVERY_TURN_MS;
    do this.ready.shift()!();
    while (this.ready.length && performance.now() < until);
    if (this.ready.length) setImmediate(() => this.pump());
    else this.pumping = false;
  }

  private async handle(topic: string, group: string, member: Member, event: CloudEvent<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await member.handler(event);
        busEvents.inc({ topic, outcome: "handled" });
        return;
      } catch (err) {
        // The process is stopping: nothing here outlives it; the service recovers the work from its store.
        if (err instanceof Redeliver) {
          busEvents.inc({ topic, outcome: "redelivered" });
          return;
        }
        if (attempt >= member.maxAttempts) {
          busEvents.inc({ topic, outcome: "dead_lettered" });
          this.logger.error(
            { err, topic, group, event_id: event.id, attempts: attempt },
            "event handler failed; dead-lettered",
          );
          if (!topic.endsWith(".dlq") && !this.closed) {
            await this.publish(deadLetterTopic(topic), {
              id: event.id,
              source: event.source,
              data: { event, group, error: String((err as Error)?.message ?? err) },
            });
          }
          return;
        }
        busEvents.inc({ topic, outcome: "retried" });
        const delay = this.retryBaseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}
