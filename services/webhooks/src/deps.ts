import type { Bus } from "@verdict/bus";
import type { Clock, Logger, SecretBox } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { EgressPolicy } from "./domain/endpoint.js";
import type { Sender } from "./egress.js";
import type { WebhookRepo } from "./repo.js";

export interface WebhookDeps {
  repo: WebhookRepo;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  secrets: SecretBox;
  sender: Sender;
  egress: EgressPolicy;
  /** Seconds before each retry. */
  retrySchedule: number[];
  /** How long a claimed attempt may take before another worker may take the message over. */
  leaseMs: number;
  /** In [0, 1): jitter of retry delays. */
  random: () => number;
  /** Webhooks one organization may register. */
  maxPerOrg: number;
  /** Tells the delivery worker that a message is due now. */
  wake: () => void;
}
