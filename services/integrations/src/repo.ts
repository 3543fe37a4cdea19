// The integrations service's collections, through the Store port: connections, the inbound
// deliveries seen (deduplicated by the provider's delivery id), and the checks made of changes
// (one per repository, head commit and policy version).
import { OutboxRepository, type Outbox, type PendingEvent } from "@verdict/outbox";
import { collectionDef, type Store } from "@verdict/store";
import type { ManifestStateRecord } from "./usecases/githubAppManifest.js";
import type { InboundEvent, ProviderKind, TokenExpiry } from "./domain/provider.js";

export type ConnectionStatus = "active" | "broken";

export interface ConnectionRecord {
  id: string;
  organization_id: string;
  provider: ProviderKind;
  base_url: string;
  /** GitHub: the App's id (not a secret). */
  app_id?: string;
  /**
   * Sealed with the master key (SecretBox); never returned by the API. Gitea: the access token;
   * GitHub: the App's private key (installation tokens are minted from it when needed).
   */
  token_sealed: string;
  webhook_secret_sealed: string;
  status: ConnectionStatus;
  last_event_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** When its token expires (domain/provider.ts TokenExpiry); absent on a connection made before it was read. */
  token_expiry?: TokenExpiry["kind"];
  token_expires_at?: string | null;
  created_at: string;
}

export interface InboundDeliveryRecord {
  id: string;
  organization_id: string;
  connection_id: string;
  /** Unique: `<connection id>:<the provider's delivery id>`; a redelivery is a duplicate. */
  dedupe_key: string;
  event: InboundEvent;
  received_at: string;
  /** The attempts of its check so far, when a provider failure rescheduled it. */
  attempts?: number;
  /** When its next attempt is due, when rescheduled. */
  not_before?: string;
  /** When its processing ended (checked, ignored, or refused for good); absent: still to do. */
  processed_at?: string;
}

export type CheckStatus = "running" | "completed" | "superseded";

export interface CheckRecord {
  id: string;
  organization_id: string;
  connection_id: string;
  /** Unique: `<repository id>:<head sha>:<policy version>`: a change is checked once per policy version. */
  dedupe_key: string;
  repository_id: string;
  repository: string;
  pull_number: number | null;
  head_sha: string;
  status: CheckStatus;
  state: string | null;
  evaluation_id: string | null;
  /** Files of the change left out for the size limits (kept with evaluation_id). */
  skipped_for_size?: number;
  created_at: string;
  updated_at: string;
}

/** The collections and the indexes their queries use. */
const COLLECTIONS = {
  connections: collectionDef<ConnectionRecord>("integrations_connections", [
    { name: "org", fields: { organization_id: 1 } },
  ]),
  deliveries: collectionDef<InboundDeliveryRecord>("integrations_deliveries", [
    { name: "dedupe", fields: { dedupe_key: 1 }, unique: true },
    // The re-drive's query: deliveries whose processing never ended.
    { name: "unprocessed", fields: { processed_at: 1, received_at: 1 } },
  ]),
  checks: collectionDef<CheckRecord>("integrations_checks", [
    { name: "dedupe", fields: { dedupe_key: 1 }, unique: true },
    { name: "pull", fields: { repository_id: 1, pull_number: 1, status: 1 } },
  ]),
  /** The GitHub App set-ups under way (usecases/githubAppManifest.ts). */
  // Found by id (the state's SHA-256) only: the primary key is the index.
  manifestStates: collectionDef<ManifestStateRecord>("integrations_manifest_states", []),
};

export class IntegrationsRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    super(store, outbox, COLLECTIONS, ["deliveries", "connections"]);
  }

  /** Stores a connection with its events (the audit event). */
  insertConnection(record: ConnectionRecord, events: PendingEvent[]): Promise<void> {
    return this.outbox.insert(this.c.connections, record, events);
  }

  /** Deletes a connection with its events; false when it does not exist. */
  removeConnection(organizationId: string, id: string, events: PendingEvent[]): Promise<boolean> {
    return this.outbox.remove(this.c.connections, { organization_id: organizationId, id }, events);
  }

  getConnection(organizationId: string, id: string): Promise<ConnectionRecord | null> {
    return this.c.connections.findOne({ organization_id: organizationId, id });
  }

  /** By id alone: the inbound route names the connection; its organization comes from the record. */
  findConnection(id: string): Promise<ConnectionRecord | null> {
    return this.c.connections.findOne({ id });
  }

  listConnections(organizationId: string): Promise<ConnectionRecord[]> {
    return this.c.connections.find({ organization_id: organizationId }, { sort: { id: 1 } });
  }

  /** Throws DuplicateKeyError for a delivery seen before; its event goes out with it (outbox). */
  insertDelivery(record: InboundDeliveryRecord, events: PendingEvent[]): Promise<void> {
    return this.outbox.insert(this.c.deliveries, record, events);
  }
}
