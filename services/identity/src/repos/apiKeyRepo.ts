// API keys, through the Store port: only each key's hash is kept. Revocations (and the other
// changes gateways must hear of) are written with the event that announces them (see @verdict/outbox).
import type { Outbox, PendingEvent } from "@verdict/outbox";
import type { Collection, Store } from "@verdict/store";
import type { Environment } from "../domain/apiKey.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

export interface KeyRecord {
  id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  environment: Environment;
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  ip_allowlist: string[];
  operator: boolean;
  /**
   * Set when a new VERDICT_BOOTSTRAP_API_KEY replaced this operator key: it stops working at
   * once and can then be revoked like any other key. Absent on keys stored before rotation.
   */
  retired_at?: string | null;
  /** The signed-in member who created it: their keys stop working when SCIM deactivates them. */
  created_by_user_id?: string | null;
}

export class ApiKeyRepo {
  private readonly keys: Collection<KeyRecord>;
  /** Keys whose last use this process is writing now. */
  private readonly touching = new Set<string>();

  constructor(
    store: Store,
    /** Key revocations are written with the change they announce (see @verdict/outbox). */
    private readonly outbox: Outbox,
  ) {
    this.keys = store.collection<KeyRecord>(IDENTITY_COLLECTIONS.keys);
  }

  /** An organization's API keys, revoked ones too, oldest id first. */
  keysOf(organizationId: string): Promise<KeyRecord[]> {
    return this.keys.find({ organization_id: organizationId }, { sort: { id: 1 } });
  }

  /** One of an organization's keys; another organization's key id finds nothing. */
  find(organizationId: string, keyId: string): Promise<KeyRecord | null> {
    return this.keys.findOne({ id: keyId, organization_id: organizationId });
  }

  byHash(hash: string): Promise<KeyRecord | null> {
    return this.keys.findOne({ hash });
  }

  /** Stores a new API key (DuplicateKeyError when its hash is taken). */
  async insert(key: KeyRecord): Promise<void> {
    await this.keys.insertOne(key);
  }

  /** Notes that a key was just used. */
  /**
   * Records a key's last use. While this process is writing a key's last use, another
   * verification of that key neither writes it again nor waits for the write: requests with one
   * key at the turn of the minute would otherwise queue on its document (on FerretDB, each
   * conditional write claims the document in turn) and each wait out the others' writes.
   */
  async touch(keyId: string, at: string): Promise<void> {
    if (this.touching.has(keyId)) return;
    this.touching.add(keyId);
    try {
      await this.keys.updateOne({ id: keyId }, { last_used_at: at });
    } finally {
      this.touching.delete(keyId);
    }
  }

  /** Revokes one of the organization's live keys with the event that announces it; null when it was not live. */
  revoke(organizationId: string, keyId: string, at: string, event: PendingEvent): Promise<KeyRecord | null> {
    return this.outbox.update(
      this.keys,
      { id: keyId, organization_id: organizationId, revoked_at: null },
      { revoked_at: at },
      [event],
    );
  }

  /** The instance operator's keys not revoked (a retired one too, until it is revoked). */
  liveOperatorKeys(): Promise<KeyRecord[]> {
    return this.keys.find({ operator: true, revoked_at: null });
  }

  /**
   * Makes a live operator key an ordinary, retired one, with the event that announces it (gateways
   * drop their cached verification); null when it was not a live operator key any more.
   */
  retireOperatorKey(keyId: string, at: string, event: PendingEvent): Promise<KeyRecord | null> {
    return this.outbox.update(
      this.keys,
      { id: keyId, operator: true, revoked_at: null },
      { operator: false, retired_at: at },
      [event],
    );
  }

  /** Writes an event about a live key (its creator's role changed) without changing the key. */
  announceChanged(organizationId: string, keyId: string, event: PendingEvent): Promise<KeyRecord | null> {
    return this.outbox.update(this.keys, { id: keyId, organization_id: organizationId, revoked_at: null }, {}, [event]);
  }

  /** The organization's live keys that this member created. */
  liveKeysCreatedBy(organizationId: string, userId: string): Promise<KeyRecord[]> {
    return this.keys.find({ organization_id: organizationId, created_by_user_id: userId, revoked_at: null });
  }

  /** How many API keys the instance holds, revoked ones too. */
  count(): Promise<number> {
    return this.keys.count({});
  }

  async init(): Promise<void> {
    // The outbox publishes the events written with key revocations, and sweeps
    // up those a crash left behind.
    await this.outbox.register(this.keys);
    await this.keys.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
    ]);
  }
}
