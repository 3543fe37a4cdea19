// Kafka Bus adapter (kafkajs). CloudEvents 1.0 in binary content mode (Kafka protocol binding):
// the data is the message value, the attributes are `ce_*` headers, the key is the subject (so
// one subject's events keep their order on one partition). Topics, and their `.dlq` topics, are
// created with the configured partitions and replication factor. Each (group, topic)
// subscription is a consumer in Kafka group `<group>.<topic>` (kafkajs' assigners do not
// handle members with different subscriptions in one group); offsets are committed after the
// handler has finished, so delivery is at-least-once, and a bounded memory of event ids per
// group skips redeliveries. A failing handler is retried with exponential backoff, then the
// event is published to the dead-letter topic and its offset committed.
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type KafkaConfig,
  type LogEntry,
  type Producer,
  type IHeaders,
  type SASLOptions,
} from "kafkajs";
import type { ConnectionOptions } from "node:tls";
import { busEvents, newId, type Logger } from "@verdict/kit";
import { SeenIds } from "./dedupe.js";
import {
  Redeliver,
  TOPICS,
  deadLetterTopic,
  type Bus,
  type CloudEvent,
  type Handler,
  type PublishInput,
  type SubscribeOptions,
  type Subscription,
} from "./port.js";

export interface KafkaSasl {
  mechanism: "plain" | "scram-sha-256" | "scram-sha-512";
  username: string;
  password: string;
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** true: TLS with the system CAs; an object: Node TLS options (CA, client certificate). */
  ssl?: boolean | ConnectionOptions;
  sasl?: KafkaSasl;
  /** Partitions and replication factor of the topics this bus creates. */
  partitions?: number;
  replicationFactor?: number;
  /**
   * Prepended to every Kafka topic name (not to the CloudEvent type), so that several
   * deployments, or test runs, can share one cluster without seeing each other's events.
   */
  topicPrefix?: string;
  /** Topics created at connect (each with its dead-letter topic); others on first use. */
  topics?: string[];
  logger: Logger;
  /** First retry delay of a failing handler; doubles per attempt, with jitter. */
  retryBaseMs?: number;
  /** How long subscribe waits for the consumer to join its group. */
  joinTimeoutMs?: number;
}

const header = (headers: IHeaders | undefined, name: string): string | undefined => {
  const v = headers?.[name];
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined ? undefined : one.toString();
};

function pinoLogCreator(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      if (level === logLevel.ERROR) logger.error(extra, `kafka: ${message}`);
      else if (level === logLevel.WARN) logger.warn(extra, `kafka: ${message}`);
      else logger.debug(extra, `kafka: ${message}`);
    };
}

/** How long topic creation waits for the new partitions' leaders. */
const LEADER_WAIT_MS = 30_000;

interface Member {
  consumer: Consumer;
  stopped: boolean;
}

export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly created = new Map<string, Promise<void>>();
  private readonly members = new Set<Member>();
  private readonly seen = new Map<string, SeenIds>();
  private readonly logger: Logger;
  private closed = false;

  private constructor(private readonly options: KafkaBusOptions) {
    this.logger = options.logger;
    const config: KafkaConfig = {
      clientId: options.clientId ?? "verdict",
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator: pinoLogCreator(options.logger),
      retry: { retries: 8, initialRetryTime: 200 },
      ...(options.ssl ? { ssl: options.ssl } : {}),
      ...(options.sasl ? { sasl: options.sasl as SASLOptions } : {}),
    };
    this.kafka = new Kafka(config);
    // The Java client's partitioner (murmur2), so keys land where other clients put them.
    this.producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: false,
      allowAutoTopicCreation: false,
    });
    this.admin = this.kafka.admin();
  }

  /** Connects, creates the configured topics (and their dead-letter topics), and is ready. */
  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const bus = new KafkaBus(options);
    try {
      await bus.admin.connect();
      await bus.producer.connect();
      await bus.ensureTopics(options.topics ?? Object.values(TOPICS));
    } catch (err) {
      await bus.admin.disconnect().catch(() => undefined);
      await bus.producer.disconnect().catch(() => undefined);
      throw err;
    }
    return bus;
  }

  async publish<T>(topic: string, input: PublishInput<T>): Promise<CloudEvent<T>> {
    if (this.closed) throw new Error("bus is closed");
    await this.ensureTopics([topic]);
    const event: CloudEvent<T> = {
      specversion: "1.0",
      id: input.id ?? newId("evt"),
      source: input.source,
      type: topic,
      time: new Date().toISOString(),
      ...(input.subject ? { subject: input.subject } : {}),
      datacontenttype: "application/json",
      data: input.data,
    };
    const headers: IHeaders = {
      ce_specversion: event.specversion,
      ce_id: event.id,
      ce_source: event.source,
      ce_type: event.type,
      ce_time: event.time,
      "content-type": event.datacontenttype,
      ...(event.subject ? { ce_subject: event.subject } : {}),
    };
    await this.producer.send({
      topic: this.kafkaTopic(topic),
      acks: -1,
      messages: [{ key: event.subject ?? event.id, value: JSON.stringify(event.data), headers }],
    });
    busEvents.inc({ topic, outcome: "published" });
    return event;
  }

  async subscribe<T>(
    topic: string,
    group: string,
    handler: Handler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    if (this.closed) throw new Error("bus is closed");
    await this.ensureTopics([topic]);
    const maxAttempts = options.maxAttempts ?? 5;
    const groupId = `${group}.${this.kafkaTopic(topic)}`;
    let seen = this.seen.get(groupId);
    if (!seen) this.seen.set(groupId, (seen = new SeenIds()));
    const dedupe = seen;
    // A fetch returns as soon as there is data; the wait bounds only an idle poll, and with it
    // how long disconnect (shutdown) waits for the poll in flight.
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      maxWaitTimeInMs: 500,
      allowAutoTopicCreation: false,
    });
    const member: Member = { consumer, stopped: false };
    this.members.add(member);
    const joined = new Promise<void>((resolve) => {
      const off = consumer.on(consumer.events.GROUP_JOIN, () => {
        off();
        resolve();
      });
    });
    try {
      await consumer.connect();
      // A group's first member starts at the beginning of the topic, so events published before
      // the group existed are not lost; later starts resume from the committed offsets.
      await consumer.subscribe({ topics: [this.kafkaTopic(topic)], fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        eachMessage: async ({ message, partition, heartbeat }) => {
          const event = this.toEvent(topic, partition, message.offset, message.headers, message.value);
          if (!dedupe.add(event.id)) {
            busEvents.inc({ topic, outcome: "duplicate" });
            return;
          }
          try {
            await this.handle(topic, group, event, handler as Handler<unknown>, maxAttempts, heartbeat);
          } catch (err) {
            // A failure to dead-letter, or an event left for the next consumer (Redeliver): leave
            // the offset, so it comes back.
            dedupe.forget(event.id);
            throw err;
          }
        },
      });
    } catch (err) {
      this.members.delete(member);
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    // Waiting for the join makes a subscription live when subscribe returns.
    const timeout = this.options.joinTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([joined, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeout)))]);
    clearTimeout(timer);
    return { unsubscribe: () => this.stopMember(member) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Consumers first: disconnect waits for the handler in flight and commits its offset, and a
    // handler may still dead-letter through the producer.
    await Promise.allSettled([...this.members].map((m) => this.stopMember(m)));
    await this.producer
      .disconnect()
      .catch((err: unknown) => this.logger.warn({ err }, "kafka producer disconnect failed"));
    await this.admin.disconnect().catch((err: unknown) => this.logger.warn({ err }, "kafka admin disconnect failed"));
  }

  private async stopMember(member: Member): Promise<void> {
    if (member.stopped) return;
    member.stopped = true;
    await member.consumer.disconnect();
    this.members.delete(member);
  }

  private toEvent(
    topic: string,
    partition: number,
    offset: string,
    headers: IHeaders | undefined,
    value: Buffer | null,
  ): CloudEvent<unknown> {
    let data: unknown = null;
    if (value && value.length) {
      try {
        data = JSON.parse(value.toString("utf8"));
      } catch {
        data = value.toString("utf8");
      }
    }
    const subject = header(headers, "ce_subject");
    return {
      specversion: "1.0",
      // A message from a producer that does not speak CloudEvents still gets a stable id.
      id: header(headers, "ce_id") ?? `${topic}/${partition}/${offset}`,
      source: header(headers, "ce_source") ?? "kafka",
      type: header(headers, "ce_type") ?? topic,
      time: header(headers, "ce_time") ?? new Date().toISOString(),
      ...(subject ? { subject } : {}),
      datacontenttype: "application/json",
      data,
    };
  }

  private async handle(
    topic: string,
    group: string,
    event: CloudEvent<unknown>,
    handler: Handler<unknown>,
    maxAttempts: number,
    heartbeat: () => Promise<void>,
  ): Promise<void> {
    const base = this.options.retryBaseMs ?? 200;
    for (let attempt = 1; ; attempt++) {
      try {
        await handler(event);
        busEvents.inc({ topic, outcome: "handled" });
        return;
      } catch (err) {
        // Left for the group's next consumer: the offset stays uncommitted (eachMessage rethrows).
        if (err instanceof Redeliver) {
          busEvents.inc({ topic, outcome: "redelivered" });
          throw err;
        }
        if (attempt >= maxAttempts) {
          busEvents.inc({ topic, outcome: "dead_lettered" });
          this.logger.error(
            { err, topic, group, event_id: event.id, attempts: attempt },
            "event handler failed; dead-lettered",
          );
          if (!topic.endsWith(".dlq")) {
            await this.publishDeadLetter(topic, group, event, err);
          }
          return;
        }
        busEvents.inc({ topic, outcome: "retried" });
        const delay = Math.min(base * 2 ** (attempt - 1), 30_000) * (0.5 + Math.random());
        await new Promise((r) => setTimeout(r, delay));
        // Long backoffs must not cost the consumer its place in the group.
        await heartbeat().catch(() => undefined);
      }
    }
  }

  private async publishDeadLetter(
    topic: string,
    group: string,
    event: CloudEvent<unknown>,
    err: unknown,
  ): Promise<void> {
    const dlq = deadLetterTopic(topic);
    await this.ensureTopics([dlq]);
    const data = { event, group, error: String((err as Error)?.message ?? err) };
    await this.producer.send({
      topic: this.kafkaTopic(dlq),
      acks: -1,
      messages: [
        {
          key: event.subject ?? event.id,
          value: JSON.stringify(data),
          headers: {
            ce_specversion: "1.0",
            ce_id: event.id,
            ce_source: event.source,
            ce_type: dlq,
            ce_time: new Date().toISOString(),
            "content-type": "application/json",
            ...(event.subject ? { ce_subject: event.subject } : {}),
          },
        },
      ],
    });
  }

  private kafkaTopic(topic: string): string {
    return `${this.options.topicPrefix ?? ""}${topic}`;
  }

  /** Polls metadata until every partition of the topics has a leader (at most 30 s). */
  private async waitForLeaders(topics: string[]): Promise<void> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
      try {
        const { topics: meta } = await this.admin.fetchTopicMetadata({ topics });
        if (
          meta.length === topics.length &&
          meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))
        )
          return;
      } catch (err) {
        const type = (err as { type?: string }).type;
        if (type !== "UNKNOWN_TOPIC_OR_PARTITION" && type !== "LEADER_NOT_AVAILABLE") throw err;
        if (Date.now() > deadline) throw err;
      }
      if (Date.now() > deadline)
        throw new Error(
          `Kafka: no leader for every partition of ${topics.join(", ")} after ${LEADER_WAIT_MS / 1000} s`,
        );
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /** Creates topics (with their dead-letter topics) that this bus has not created yet. */
  private async ensureTopics(topics: string[]): Promise<void> {
    const wanted = new Set<string>();
    for (const t of topics) {
      wanted.add(t);
      if (!t.endsWith(".dlq")) wanted.add(deadLetterTopic(t));
    }
    const missing = [...wanted].filter((t) => !this.created.has(t));
    if (missing.length) {
      const names = missing.map((topic) => this.kafkaTopic(topic));
      const creation = this.admin
        .createTopics({
          // kafkajs' own wait retries only LEADER_NOT_AVAILABLE; a KRaft broker also answers
          // UNKNOWN_TOPIC_OR_PARTITION for a moment after creating a topic, so we wait ourselves.
          waitForLeaders: false,
          topics: names.map((topic) => ({
            topic,
            numPartitions: this.options.partitions ?? 3,
            replicationFactor: this.options.replicationFactor ?? 1,
          })),
        })
        .then(() => this.waitForLeaders(names));
      for (const t of missing) {
        const p = creation.catch((err: unknown) => {
          this.created.delete(t);
          throw err;
        });
        this.created.set(t, p);
      }
    }
    await Promise.all([...wanted].map((t) => this.created.get(t)));
  }
}
