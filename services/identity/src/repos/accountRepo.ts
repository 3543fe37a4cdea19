// Accounts, through the Store port: a person's profile and credentials (password, reset link,
// TOTP, recovery codes, passkeys), one record per person whichever organizations they belong to.
// Credential writes are conditional on what was read, so concurrent sign-ins never spend one twice.
import type { Collection, Filter, Store } from "@verdict/store";
import { IDENTITY_COLLECTIONS } from "./collections.js";

export interface UserRecord {
  id: string;
  /** Normalized (lowercase); unique. */
  email: string;
  name: string;
  /** argon2id; null until the first invitation is accepted. */
  password_hash: string | null;
  /** The TOTP secret sealed with the identity subkey of the master key, once enrolled. */
  totp_sealed: string | null;
  /** The last time step a TOTP code was accepted for (replays of it are refused). */
  totp_last_step: number | null;
  /** An enrolment started but not confirmed yet. */
  totp_pending_sealed: string | null;
  /** SHA-256 of each unused recovery code. */
  recovery_code_hashes: string[];
  /** WebAuthn credentials (passkeys, security keys); absent on users stored before passkeys. */
  passkeys?: PasskeyRecord[];
  /**
   * Goes up by one with every write of `passkeys`: the condition of the next write, so two
   * concurrent changes (a rename and a delete, a registration and a sign-in) never drop each
   * other's. Absent on users whose passkeys were never written since this was kept.
   */
  passkeys_rev?: number;
  /** How many recovery codes are left: the condition of the update that spends one. */
  recovery_codes_left: number;
  created_at: string;
  /**
   * The organizations whose identity provider made or linked this account (SCIM, SSO): an account
   * without a password is bound to them (domain/account.ts). Absent on accounts stored before.
   */
  idp_organization_ids?: string[];
  /** SHA-256 of the open password-reset link's token (single use), and when it stops working. */
  password_reset_hash?: string | null;
  password_reset_expires_at?: string | null;
  /** The organization whose admin issued the open reset link. */
  password_reset_org?: string | null;
}

export interface PasskeyRecord {
  /** The credential id, base64url. */
  id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: string;
  /** The last sign-in with it; absent until then (and on passkeys stored before this was kept). */
  last_used_at?: string | null;
  /** singleDevice or multiDevice (synced), as the authenticator said at registration. */
  device_type?: string;
  /** Whether the authenticator said the credential is backed up (synced). */
  backed_up?: boolean;
  /** Up by one with each rename (If-Match names it); absent = 1. */
  version?: number;
}

export class AccountRepo {
  private readonly users: Collection<UserRecord>;

  constructor(store: Store) {
    this.users = store.collection<UserRecord>(IDENTITY_COLLECTIONS.users);
  }

  /** Stores a new account (DuplicateKeyError when its email or id is taken). */
  async insert(user: UserRecord): Promise<void> {
    await this.users.insertOne(user);
  }

  byEmail(email: string): Promise<UserRecord | null> {
    return this.users.findOne({ email });
  }

  byId(id: string): Promise<UserRecord | null> {
    return this.users.findOne({ id });
  }

  /** Gives a nameless account the name its IdP knows (an account with a name keeps it). */
  async nameIfNameless(userId: string, name: string): Promise<void> {
    await this.users.updateOne({ id: userId, name: "" }, { name });
  }

  /** Sets the name and first password of an account that has none yet; null when it got one meanwhile. */
  setFirstPassword(userId: string, name: string, passwordHash: string | null): Promise<UserRecord | null> {
    return this.users.updateOne({ id: userId, password_hash: null }, { name, password_hash: passwordHash });
  }

  /** Notes that an organization's identity provider made or linked the account (it is bound to it). */
  async bindTo(user: UserRecord, organizationId: string): Promise<void> {
    const bound = user.idp_organization_ids ?? [];
    if (bound.includes(organizationId)) return;
    const fresh = await this.users.findOne({ id: user.id });
    const now = fresh?.idp_organization_ids ?? [];
    if (!now.includes(organizationId))
      await this.users.updateOne({ id: user.id }, { idp_organization_ids: [...now, organizationId] });
  }

  /** Replaces a password still at `previousHash`; null when it changed meanwhile. Any open reset link ends. */
  setPassword(userId: string, previousHash: string | null, passwordHash: string): Promise<UserRecord | null> {
    return this.users.updateOne(
      { id: userId, password_hash: previousHash },
      { password_hash: passwordHash, password_reset_hash: null, password_reset_expires_at: null },
    );
  }

  /** Opens a password-reset link for the account, issued in an organization (replacing any earlier one). */
  async openPasswordReset(userId: string, organizationId: string, tokenHash: string, expiresAt: string): Promise<void> {
    await this.users.updateOne(
      { id: userId },
      { password_reset_hash: tokenHash, password_reset_expires_at: expiresAt, password_reset_org: organizationId },
    );
  }

  byPasswordResetHash(tokenHash: string): Promise<UserRecord | null> {
    return this.users.findOne({ password_reset_hash: tokenHash });
  }

  /** Spends a reset link, once: sets the password if the link is still the open one; null otherwise. */
  redeemPasswordReset(userId: string, tokenHash: string, passwordHash: string): Promise<UserRecord | null> {
    return this.users.updateOne(
      { id: userId, password_reset_hash: tokenHash },
      { password_hash: passwordHash, password_reset_hash: null, password_reset_expires_at: null },
    );
  }

  /**
   * Writes a user's passkeys (and other fields with them) if nobody wrote them since `user` was
   * read (passkeys_rev); null when somebody did.
   */
  writePasskeys(user: UserRecord, passkeys: PasskeyRecord[], extra?: Partial<UserRecord>): Promise<UserRecord | null> {
    const rev = user.passkeys_rev;
    const filter: Filter = { id: user.id, passkeys_rev: rev === undefined ? { $exists: false } : rev };
    return this.users.updateOne(filter, { ...extra, passkeys, passkeys_rev: (rev ?? 0) + 1 });
  }

  /** Keeps a TOTP enrolment under way (the secret sealed). */
  async startTotpEnrolment(userId: string, pendingSealed: string): Promise<void> {
    await this.users.updateOne({ id: userId }, { totp_pending_sealed: pendingSealed });
  }

  /** Turns TOTP on for a user who has it off; null when it was turned on meanwhile. */
  enableTotp(
    userId: string,
    set: Pick<UserRecord, "totp_sealed" | "totp_last_step" | "recovery_code_hashes" | "recovery_codes_left">,
  ): Promise<UserRecord | null> {
    return this.users.updateOne({ id: userId, totp_sealed: null }, { ...set, totp_pending_sealed: null });
  }

  /** Spends a TOTP time step if the user's last one is still the one read; false when another request won. */
  async spendTotpStep(user: UserRecord, step: number): Promise<boolean> {
    return (
      (await this.users.updateOne({ id: user.id, totp_last_step: user.totp_last_step }, { totp_last_step: step })) !==
      null
    );
  }

  /**
   * Keeps the recovery codes left after one was spent, if as many were left as when `user` was
   * read; false when another request spent one meanwhile.
   */
  async spendRecoveryCode(user: UserRecord, left: string[]): Promise<boolean> {
    const updated = await this.users.updateOne(
      { id: user.id, recovery_codes_left: user.recovery_code_hashes.length },
      { recovery_code_hashes: left, recovery_codes_left: left.length },
    );
    return updated !== null;
  }

  async init(): Promise<void> {
    await this.users.ensureIndexes([
      { name: "email", fields: { email: 1 }, unique: true },
      { name: "password_reset_hash", fields: { password_reset_hash: 1 } },
    ]);
  }
}
