// One inbound provider delivery: the signature is checked against the raw body before anything
// else reads it, then the delivery is recorded once (the provider's delivery id) together with
// the event that asks for its check (outbox): the caller is answered at once, the check runs on
// the bus.
import { createHash } from "node:crypto";
import { AppError, errors, newId } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { sealContext, type IntegrationsDeps } from "../deps.js";
import { CHANGE_RECEIVED_TOPIC, type ChangeReceivedData } from "../domain/events.js";
import { ProviderError } from "../domain/provider.js";

export interface ReceiveEventCommand {
  provider: string;
  connectionId: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export type ReceiveOutcome = "accepted" | "duplicate" | "ignored";

/** The same answer for an unknown connection and a bad signature: nothing to learn by probing. */
const refused = () =>
  new AppError("unauthorized", "INVALID_SIGNATURE", "The delivery's signature does not match the connection's secret");

export async function receiveEvent(
  deps: IntegrationsDeps,
  cmd: ReceiveEventCommand,
): Promise<{ outcome: ReceiveOutcome; deliveryId: string }> {
  const verifier = deps.inbound[cmd.provider as keyof IntegrationsDeps["inbound"]];
  if (!verifier) throw errors.notFound("provider", cmd.provider);
  const connection = cmd.connectionId ? await deps.repo.findConnection(cmd.connectionId) : null;
  // A connection of another provider is no connection for this route.
  const secret =
    connection && connection.provider === cmd.provider
      ? deps.secrets.open(connection.webhook_secret_sealed, sealContext.webhookSecret(connection.id))
      : // Still compute a signature: the answer takes as long as for a known connection.
        createHash("sha256").update(cmd.connectionId).digest("hex");
  const verified = await verifier.verify(cmd.headers, cmd.body, secret);
  if (!verified || !connection || connection.provider !== cmd.provider) throw refused();
  let event;
  try {
    event = verifier.parse(cmd.headers, cmd.body);
  } catch (err) {
    if (err instanceof ProviderError)
      throw new AppError("validation", "INVALID_PAYLOAD", `The delivery could not be read: ${err.message}`);
    throw err;
  }
  const now = deps.clock.now().toISOString();
  await deps.repo.c.connections.updateOne({ id: connection.id }, { last_event_at: now });
  if (event.kind === "ignored" || event.kind === "ping") return { outcome: "ignored", deliveryId: event.deliveryId };
  const id = newId("dlv");
  const data: ChangeReceivedData = {
    organization_id: connection.organization_id,
    connection_id: connection.id,
    delivery_id: id,
  };
  try {
    await deps.repo.insertDelivery(
      {
        id,
        organization_id: connection.organization_id,
        connection_id: connection.id,
        dedupe_key: `${connection.id}:${event.deliveryId}`,
        event,
        received_at: now,
      },
      [deps.outbox.event(CHANGE_RECEIVED_TOPIC, { source: "integrations", subject: id, data })],
    );
  } catch (err) {
    if (err instanceof DuplicateKeyError) return { outcome: "duplicate", deliveryId: event.deliveryId };
    throw err;
  }
  return { outcome: "accepted", deliveryId: event.deliveryId };
}
