// The identity service's collections of organizations, API keys, accounts and members, sessions
// and MFA, through the Store port (OAuth's, SSO's, SCIM's and the audit log's: repos/).
import type { Outbox, PendingEvent } from "@verdict/outbox";
import { IDENTITY_COLLECTIONS } from "./repos/collections.js";
import { DuplicateKeyError, type Collection, type Filter, type Store } from "@verdict/store";
import type { OrgSettings, Plan, RateLimitOverrides } from "./domain/organization.js";
import type { Environment } from "./domain/apiKey.js";
import type { Role } from "./domain/member.js";

export interface OrgRecord {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
  settings: OrgSettings;
  rate_limits: RateLimitOverrides;
  /** The organization created at bootstrap; the operator key lives here. */
  is_default: boolean;
  version: number;
}

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

/** A membership: one person's role in one organization. id = `<organization_id>.<user_id>`. */
export interface MemberRecord {
  id: string;
  organization_id: string;
  user_id: string;
  role: Role;
  status: "active" | "invited";
  /** SHA-256 of the invitation token while the invitation is open. */
  invitation_hash: string | null;
  invitation_expires_at: string | null;
  created_at: string;
  version: number;
}

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

export interface SessionRecord {
  id: string;
  /** SHA-256 of the session token (or of the sign-in challenge while state is mfa_pending). */
  hash: string;
  user_id: string;
  organization_id: string;
  state: "active" | "mfa_pending";
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  ip: string;
  user_agent: string;
  /** The WebAuthn challenge issued for this session (registration) or sign-in (mfa_pending); used once. */
  webauthn_challenge?: string | null;
  /** Started by an SSO sign-in whose IdP said it used more than one factor (docs/sso.md). */
  idp_mfa?: boolean;
}

export interface ThrottleRecord {
  /** `account:<sha256 of the email>` or `address:<ip>` */
  id: string;
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
  /** Up by one with every write: the condition of the next (a compare-and-set). Absent on old records. */
  rev?: number;
}

export class IdentityRepo {
  private readonly orgs: Collection<OrgRecord>;
  private readonly keys: Collection<KeyRecord>;
  private readonly members: Collection<MemberRecord>;
  private readonly users: Collection<UserRecord>;
  private readonly sessions: Collection<SessionRecord>;
  private readonly throttles: Collection<ThrottleRecord>;

  constructor(
    store: Store,
    /** Key revocations are written with the change they announce (see @verdict/outbox). */
    private readonly outbox: Outbox,
  ) {
    this.orgs = store.collection<OrgRecord>(IDENTITY_COLLECTIONS.orgs);
    this.keys = store.collection<KeyRecord>(IDENTITY_COLLECTIONS.keys);
    this.members = store.collection<MemberRecord>(IDENTITY_COLLECTIONS.members);
    this.users = store.collection<UserRecord>(IDENTITY_COLLECTIONS.users);
    this.sessions = store.collection<SessionRecord>(IDENTITY_COLLECTIONS.sessions);
    this.throttles = store.collection<ThrottleRecord>(IDENTITY_COLLECTIONS.throttles);
  }

  // Organizations

  /** Stores a new organization (DuplicateKeyError when its id is taken). */
  async insertOrganization(org: OrgRecord): Promise<void> {
    await this.orgs.insertOne(org);
  }

  /** Sets fields of an organization (dotted paths reach into settings); null when there is none. */
  updateOrganization(organizationId: string, set: Record<string, unknown>): Promise<OrgRecord | null> {
    return this.orgs.updateOne({ id: organizationId }, set as Partial<OrgRecord>);
  }

  /** How many organizations the instance holds. */
  organizationsCount(): Promise<number> {
    return this.orgs.count({});
  }

  findOrganization(organizationId: string): Promise<OrgRecord | null> {
    return this.orgs.findOne({ id: organizationId });
  }

  /** The instance's default organization (the instance operator's), once bootstrap made it. */
  defaultOrganization(): Promise<OrgRecord | null> {
    return this.orgs.findOne({ is_default: true });
  }

  /** An organization's API keys, revoked ones too, oldest id first. */
  keysOf(organizationId: string): Promise<KeyRecord[]> {
    return this.keys.find({ organization_id: organizationId }, { sort: { id: 1 } });
  }

  /** One of an organization's keys; another organization's key id finds nothing. */
  findKey(organizationId: string, keyId: string): Promise<KeyRecord | null> {
    return this.keys.findOne({ id: keyId, organization_id: organizationId });
  }

  keyByHash(hash: string): Promise<KeyRecord | null> {
    return this.keys.findOne({ hash });
  }

  /** Stores a new API key (DuplicateKeyError when its hash is taken). */
  async insertKey(key: KeyRecord): Promise<void> {
    await this.keys.insertOne(key);
  }

  /** Notes that a key was just used. */
  async touchKey(keyId: string, at: string): Promise<void> {
    await this.keys.updateOne({ id: keyId }, { last_used_at: at });
  }

  /** Revokes one of the organization's live keys with the event that announces it; null when it was not live. */
  revokeKey(organizationId: string, keyId: string, at: string, event: PendingEvent): Promise<KeyRecord | null> {
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

  /** The organization's live keys that this member created. */
  /** Writes an event about a live key (its creator's role changed) without changing the key. */
  announceKeyChanged(organizationId: string, keyId: string, event: PendingEvent): Promise<KeyRecord | null> {
    return this.outbox.update(this.keys, { id: keyId, organization_id: organizationId, revoked_at: null }, {}, [event]);
  }

  liveKeysCreatedBy(organizationId: string, userId: string): Promise<KeyRecord[]> {
    return this.keys.find({ organization_id: organizationId, created_by_user_id: userId, revoked_at: null });
  }

  /** How many API keys the instance holds, revoked ones too. */
  keysCount(): Promise<number> {
    return this.keys.count({});
  }

  membershipId(organizationId: string, userId: string): string {
    return `${organizationId}.${userId}`;
  }

  membership(organizationId: string, userId: string): Promise<MemberRecord | null> {
    return this.members.findOne({ id: this.membershipId(organizationId, userId) });
  }

  /** The people who count as members: invitations not yet accepted do not. */
  activeMembersCount(organizationId: string): Promise<number> {
    return this.members.count({ organization_id: organizationId, status: "active" });
  }

  activeOwnersCount(organizationId: string): Promise<number> {
    return this.members.count({ organization_id: organizationId, status: "active", role: "owner" });
  }

  membersOf(organizationId: string): Promise<MemberRecord[]> {
    return this.members.find({ organization_id: organizationId }, { sort: { created_at: 1 } });
  }

  /** The user's active memberships, oldest first (the default organization to sign in to). */
  activeMembershipsOf(userId: string): Promise<MemberRecord[]> {
    return this.members.find({ user_id: userId, status: "active" }, { sort: { created_at: 1 } });
  }

  openInvitation(tokenHash: string): Promise<MemberRecord | null> {
    return this.members.findOne({ invitation_hash: tokenHash, status: "invited" });
  }

  /** Stores a new membership (DuplicateKeyError when the person has one here already). */
  async insertMembership(membership: MemberRecord): Promise<void> {
    await this.members.insertOne(membership);
  }

  /** Renews an open invitation still at its version (a new token, role and expiry); null when it changed. */
  renewInvitation(
    membership: MemberRecord,
    set: Pick<MemberRecord, "role" | "invitation_hash" | "invitation_expires_at">,
  ): Promise<MemberRecord | null> {
    return this.members.updateOne(
      { id: membership.id, version: membership.version, status: "invited" },
      { ...set, version: membership.version + 1 },
    );
  }

  /**
   * Turns an open invitation into an active membership, once: only the caller that finds it still
   * open (with this token, when one is given) wins; null for the others.
   */
  acceptInvitation(invitation: MemberRecord, tokenHash?: string | null): Promise<MemberRecord | null> {
    return this.members.updateOne(
      {
        id: invitation.id,
        status: "invited",
        ...(tokenHash === undefined ? {} : { invitation_hash: tokenHash }),
      },
      { status: "active", invitation_hash: null, invitation_expires_at: null, version: invitation.version + 1 },
    );
  }

  /** Makes a membership still at its version active with this role (an invitation ends); null when it changed. */
  activateMembership(membership: MemberRecord, role: Role): Promise<MemberRecord | null> {
    return this.members.updateOne(
      { id: membership.id, version: membership.version },
      {
        status: "active",
        role,
        invitation_hash: null,
        invitation_expires_at: null,
        version: membership.version + 1,
      },
    );
  }

  /** Gives a membership still at its version another role; null when it changed meanwhile. */
  changeRole(membership: MemberRecord, role: Role): Promise<MemberRecord | null> {
    return this.members.updateOne(
      { id: membership.id, version: membership.version },
      { role, version: membership.version + 1 },
    );
  }

  /** Deletes a membership still at its version; false when it changed meanwhile. */
  deleteMembership(membership: MemberRecord): Promise<boolean> {
    return this.members.deleteOne({ id: membership.id, version: membership.version });
  }

  /** Deletes the person's membership of the organization, whatever its state; false when there was none. */
  endMembership(organizationId: string, userId: string): Promise<boolean> {
    return this.members.deleteOne({ id: this.membershipId(organizationId, userId) });
  }

  /** Every membership of every organization (tests look for what must never be stored). */
  allMemberships(): Promise<MemberRecord[]> {
    return this.members.find({});
  }

  /** Stores a new account (DuplicateKeyError when its email or id is taken). */
  async insertUser(user: UserRecord): Promise<void> {
    await this.users.insertOne(user);
  }

  async insertSession(session: SessionRecord): Promise<void> {
    await this.sessions.insertOne(session);
  }

  /**
   * The WebAuthn challenge a session waits to see answered: set on a live session only, cleared
   * (null) once an answer came, whatever it was.
   */
  async setWebauthnChallenge(sessionId: string, challenge: string | null): Promise<void> {
    if (challenge === null) await this.sessions.updateOne({ id: sessionId }, { webauthn_challenge: null });
    else await this.sessions.updateOne({ id: sessionId, revoked_at: null }, { webauthn_challenge: challenge });
  }

  /** Ends one session, if it is still live; false when it was not. */
  async revokeSession(sessionId: string, at: string): Promise<boolean> {
    return (await this.sessions.updateOne({ id: sessionId, revoked_at: null }, { revoked_at: at })) !== null;
  }

  userByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findOne({ email });
  }

  userById(id: string): Promise<UserRecord | null> {
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
  async bindAccountTo(user: UserRecord, organizationId: string): Promise<void> {
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

  userByPasswordResetHash(tokenHash: string): Promise<UserRecord | null> {
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

  sessionByHash(hash: string): Promise<SessionRecord | null> {
    return this.sessions.findOne({ hash });
  }

  /** Notes that a live session was just seen; the session as it is now (null when it ended meanwhile). */
  touchSession(sessionId: string, at: string): Promise<SessionRecord | null> {
    return this.sessions.updateOne({ id: sessionId, revoked_at: null }, { last_seen_at: at });
  }

  /** Every session of every organization, ended ones too (tests look for what must never be stored). */
  allSessions(): Promise<SessionRecord[]> {
    return this.sessions.find({});
  }

  // Sign-in throttles

  throttle(id: string): Promise<ThrottleRecord | null> {
    return this.throttles.findOne({ id });
  }

  /**
   * Writes a throttle's next state if nobody wrote it since `prev` was read (a compare-and-set on
   * `rev`; `prev` null: only if it still does not exist); false when another request won.
   */
  async writeThrottle(prev: ThrottleRecord | null, next: Omit<ThrottleRecord, "rev">): Promise<boolean> {
    const rev = (prev?.rev ?? 0) + 1;
    if (!prev) {
      try {
        await this.throttles.insertOne({ ...next, rev });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    const { id, ...fields } = next;
    const filter: Filter = { id, rev: prev.rev === undefined ? { $exists: false } : prev.rev };
    return (await this.throttles.updateOne(filter, { ...fields, rev })) !== null;
  }

  async clearThrottle(id: string): Promise<void> {
    await this.throttles.deleteOne({ id });
  }

  /**
   * Ends every live session of a user in one organization (removed from it) or everywhere, but
   * the one kept (the session that changed its password).
   */
  async revokeSessionsOf(
    userId: string,
    organizationId: string | undefined,
    at: string,
    keepSessionId?: string,
  ): Promise<number> {
    const live = await this.sessions.find({
      user_id: userId,
      revoked_at: null,
      ...(organizationId ? { organization_id: organizationId } : {}),
      ...(keepSessionId ? { id: { $ne: keepSessionId } } : {}),
    });
    for (const s of live) await this.sessions.updateOne({ id: s.id, revoked_at: null }, { revoked_at: at });
    return live.length;
  }

  async init(): Promise<void> {
    // The outbox publishes the events written with key revocations, and sweeps
    // up those a crash left behind.
    await this.outbox.register(this.keys);
    await this.orgs.ensureIndexes([{ name: "is_default", fields: { is_default: 1 } }]);
    await this.keys.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
    ]);
    await this.members.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "user_id", fields: { user_id: 1 } },
      { name: "invitation_hash", fields: { invitation_hash: 1 } },
    ]);
    await this.users.ensureIndexes([
      { name: "email", fields: { email: 1 }, unique: true },
      { name: "password_reset_hash", fields: { password_reset_hash: 1 } },
    ]);
    await this.sessions.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "user_id", fields: { user_id: 1 } },
    ]);
  }
}
