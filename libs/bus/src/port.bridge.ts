// The Bus port across a MessagePort: a worker thread uses the bus of the thread that started it.
// All-in-one runs the gateway on a thread of its own; it still has to hear every key revocation
// from the in-process bus. The owning side serves its bus on one end of a MessageChannel
// (`serveBus`), the worker uses `PortBus` on the other. Delivery semantics stay those of the
// served bus: a handler that throws in the worker fails the delivery there (retries, then the
// dead-letter topic), because the served side awaits the worker's acknowledgement; one that throws
// `Redeliver` is a Redeliver on the served side too.
import type { MessagePort } from "node:worker_threads";
import { Redeliver } from "./port.js";
import type { Bus, CloudEvent, Handler, PublishInput, SubscribeOptions, Subscription } from "./port.js";

type Request =
  | { kind: "publish"; rid: number; topic: string; input: PublishInput<unknown> }
  | { kind: "subscribe"; rid: number; sid: number; topic: string; group: string; options: SubscribeOptions }
  | { kind: "unsubscribe"; rid: number; sid: number }
  | { kind: "ack"; did: number; error?: string; redeliver?: boolean };

type Reply =
  | { kind: "done"; rid: number; event?: CloudEvent<unknown> }
  | { kind: "failed"; rid: number; error: string }
  | { kind: "deliver"; did: number; sid: number; event: CloudEvent<unknown> };

/** A request as the PortBus writes it, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, "rid"> : never;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Serves `bus` to the PortBus on the other end of `port`; returns a function that stops serving. */
export function serveBus(bus: Bus, port: MessagePort): () => Promise<void> {
  const subscriptions = new Map<number, Subscription>();
  const acks = new Map<number, { resolve(): void; reject(err: Error): void }>();
  let nextDelivery = 0;
  let closed = false;
  const reply = (r: Reply) => {
    if (!closed) port.postMessage(r);
  };

  port.on("message", (req: Request) => {
    void (async () => {
      switch (req.kind) {
        case "ack": {
          const pending = acks.get(req.did);
          acks.delete(req.did);
          if (req.error === undefined) pending?.resolve();
          else pending?.reject(req.redeliver ? new Redeliver(req.error) : new Error(req.error));
          return;
        }
        case "publish":
          return reply({ kind: "done", rid: req.rid, event: await bus.publish(req.topic, req.input) });
        case "subscribe": {
          const sub = await bus.subscribe(
            req.topic,
            req.group,
            (event) =>
              new Promise<void>((resolve, reject) => {
                if (closed) return reject(new Error("bus bridge closed"));
                const did = ++nextDelivery;
                acks.set(did, { resolve, reject });
                reply({ kind: "deliver", did, sid: req.sid, event });
              }),
            req.options,
          );
          subscriptions.set(req.sid, sub);
          return reply({ kind: "done", rid: req.rid });
        }
        case "unsubscribe":
          await subscriptions.get(req.sid)?.unsubscribe();
          subscriptions.delete(req.sid);
          return reply({ kind: "done", rid: req.rid });
      }
    })().catch((err: unknown) => {
      if ("rid" in req) reply({ kind: "failed", rid: req.rid, error: message(err) });
    });
  });

  return async () => {
    for (const sub of subscriptions.values()) await sub.unsubscribe();
    subscriptions.clear();
    closed = true;
    for (const pending of acks.values()) pending.reject(new Error("bus bridge closed"));
    acks.clear();
    port.close();
  };
}

/** A Bus whose events travel through a MessagePort to the bus that `serveBus` shares. */
export class PortBus implements Bus {
  private nextRequest = 0;
  private nextSubscription = 0;
  private readonly waiting = new Map<
    number,
    { resolve(event?: CloudEvent<unknown>): void; reject(err: Error): void }
  >();
  private readonly handlers = new Map<number, Handler<unknown>>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly port: MessagePort) {
    port.on("message", (reply: Reply) => {
      if (reply.kind === "deliver") return this.deliver(reply.did, reply.sid, reply.event);
      const waiter = this.waiting.get(reply.rid);
      this.waiting.delete(reply.rid);
      if (reply.kind === "done") waiter?.resolve(reply.event);
      else waiter?.reject(new Error(reply.error));
    });
  }

  async publish<T>(topic: string, input: PublishInput<T>): Promise<CloudEvent<T>> {
    return (await this.request({ kind: "publish", topic, input })) as CloudEvent<T>;
  }

  async subscribe<T>(
    topic: string,
    group: string,
    handler: Handler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    const sid = ++this.nextSubscription;
    this.handlers.set(sid, handler as Handler<unknown>);
    await this.request({ kind: "subscribe", sid, topic, group, options });
    return {
      unsubscribe: async () => {
        if (!this.handlers.delete(sid) || this.closed) return;
        await this.request({ kind: "unsubscribe", sid });
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const sid of [...this.handlers.keys()])
      await this.request({ kind: "unsubscribe", sid }).catch(() => undefined);
    this.handlers.clear();
    this.closed = true;
    await Promise.allSettled(this.inFlight);
    for (const waiter of this.waiting.values()) waiter.reject(new Error("bus closed"));
    this.waiting.clear();
    this.port.close();
  }

  private request(req: Unnumbered<Extract<Request, { rid: number }>>): Promise<CloudEvent<unknown> | undefined> {
    if (this.closed) return Promise.reject(new Error("bus closed"));
    const rid = ++this.nextRequest;
    return new Promise((resolve, reject) => {
      this.waiting.set(rid, { resolve, reject });
      this.port.postMessage({ ...req, rid });
    });
  }

  private deliver(did: number, sid: number, event: CloudEvent<unknown>): void {
    const handler = this.handlers.get(sid);
    const run = (async () => {
      try {
        if (!handler) throw new Error("no longer subscribed");
        await handler(event);
        this.port.postMessage({ kind: "ack", did } satisfies Request);
      } catch (err) {
        if (this.closed) return;
        const redeliver = err instanceof Redeliver;
        this.port.postMessage({ kind: "ack", did, error: message(err), redeliver } satisfies Request);
      }
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }
}
