// The Bus port's contract, run against every adapter (in-process, Kafka). Waits are generous:
// a Kafka consumer group takes seconds to (re)balance on a busy 2-core machine.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { deadLetterTopic, Redeliver, type Bus, type CloudEvent } from "../src/port.js";

const waitFor = async (cond: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
};

export function busContract(adapter: string, makeBus: () => Promise<Bus>): void {
  describe(`Bus contract: ${adapter}`, () => {
    let bus: Bus;
    let topic: string;
    let n = 0;
    beforeEach(async () => {
      bus = await makeBus();
      topic = `verdict.test.t${Date.now()}_${++n}`;
    });
    afterEach(async () => {
      await bus.close();
    });

    it("delivers CloudEvents to every consumer group", async () => {
      const a: CloudEvent<{ v: number }>[] = [];
      const b: CloudEvent<{ v: number }>[] = [];
      await bus.subscribe<{ v: number }>(topic, "group-a", async (e) => void a.push(e));
      await bus.subscribe<{ v: number }>(topic, "group-b", async (e) => void b.push(e));
      const sent = await bus.publish(topic, { source: "/test", subject: "s1", data: { v: 1 } });
      await waitFor(() => a.length === 1 && b.length === 1);
      expect(a[0]).toMatchObject({
        specversion: "1.0",
        id: sent.id,
        type: topic,
        source: "/test",
        subject: "s1",
        data: { v: 1 },
      });
      expect(b[0]!.id).toBe(sent.id);
    });

    it("gives each event to one member of a group", async () => {
      const seen: string[] = [];
      await bus.subscribe(topic, "g", async () => void seen.push("m1"));
      await bus.subscribe(topic, "g", async () => void seen.push("m2"));
      for (let i = 0; i < 4; i++) await bus.publish(topic, { source: "/test", data: { i } });
      await waitFor(() => seen.length === 4);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toHaveLength(4);
    });

    it("retries a failing handler and then succeeds", async () => {
      let calls = 0;
      await bus.subscribe(topic, "g", async () => {
        calls++;
        if (calls < 3) throw new Error("transient");
      });
      await bus.publish(topic, { source: "/test", data: {} });
      await waitFor(() => calls === 3);
    });

    it("dead-letters an event after the last attempt", async () => {
      const dead: CloudEvent<{ group: string; error: string }>[] = [];
      await bus.subscribe<{ group: string; error: string }>(
        deadLetterTopic(topic),
        "dlq-reader",
        async (e) => void dead.push(e),
      );
      await bus.subscribe(
        topic,
        "g",
        async () => {
          throw new Error("always broken");
        },
        { maxAttempts: 2 },
      );
      const sent = await bus.publish(topic, { source: "/test", data: {} });
      await waitFor(() => dead.length === 1);
      expect(dead[0]!.id).toBe(sent.id);
      expect(dead[0]!.data).toMatchObject({ group: "g", error: "always broken" });
    });

    it("neither retries nor dead-letters an event its handler leaves for the next consumer (Redeliver)", async () => {
      const dead: CloudEvent[] = [];
      await bus.subscribe(deadLetterTopic(topic), "dlq-reader", async (e) => void dead.push(e));
      let calls = 0;
      await bus.subscribe(
        topic,
        "g",
        async () => {
          calls++;
          throw new Redeliver();
        },
        { maxAttempts: 2 },
      );
      await bus.publish(topic, { source: "/test", data: {} });
      await waitFor(() => calls >= 1);
      // Longer than two attempts and a dead letter take ("dead-letters an event after the last attempt").
      await new Promise((r) => setTimeout(r, 2000));
      expect(dead).toEqual([]);
    });

    it("takes an event id once per group (a re-published event is skipped)", async () => {
      const seen: string[] = [];
      await bus.subscribe<{ v: string }>(topic, "g", async (e) => void seen.push(`${e.id}:${e.data.v}`));
      // One subject, so all three land on one partition in order: when the marker is seen, the
      // re-published event has been seen (and skipped) too.
      const first = await bus.publish(topic, { source: "/test", subject: "s", data: { v: "a" } });
      await bus.publish(topic, { id: first.id, source: "/test", subject: "s", data: { v: "again" } });
      const marker = await bus.publish(topic, { source: "/test", subject: "s", data: { v: "marker" } });
      await waitFor(() => seen.includes(`${marker.id}:marker`));
      expect(seen).toEqual([`${first.id}:a`, `${marker.id}:marker`]);
    });

    it("keeps the order of one subject's events", async () => {
      const seen: number[] = [];
      await bus.subscribe<{ i: number }>(topic, "g", async (e) => void seen.push(e.data.i));
      for (let i = 0; i < 10; i++) await bus.publish(topic, { source: "/test", subject: "same-subject", data: { i } });
      await waitFor(() => seen.length === 10);
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it("does not hand a group's handled events to its next consumer after close", async () => {
      const before: string[] = [];
      await bus.subscribe(topic, "g", async (e) => void before.push(e.id));
      const a = await bus.publish(topic, { source: "/test", data: { n: 1 } });
      await waitFor(() => before.length === 1);
      await bus.close();
      bus = await makeBus();
      const after: string[] = [];
      await bus.subscribe(topic, "g", async (e) => void after.push(e.id));
      const b = await bus.publish(topic, { source: "/test", data: { n: 2 } });
      await waitFor(() => after.includes(b.id));
      await new Promise((r) => setTimeout(r, 200));
      expect(before).toEqual([a.id]);
      expect(after).toEqual([b.id]);
    });

    it("finishes in-flight handlers on close", async () => {
      let started = false;
      let done = false;
      await bus.subscribe(topic, "g", async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 300));
        done = true;
      });
      await bus.publish(topic, { source: "/test", data: {} });
      await waitFor(() => started);
      await bus.close();
      expect(done).toBe(true);
      bus = await makeBus();
    });
  });
}
