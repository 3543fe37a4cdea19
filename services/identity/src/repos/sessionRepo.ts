// Signed-in sessions, through the Store port: only each session token's hash is kept, and a
// session waiting for its second factor is one too (state mfa_pending).
import type { Collection, Store } from "@verdict/store";
import { IDENTITY_COLLECTIONS } from "./collections.js";

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

export class SessionRepo {
  private readonly sessions: Collection<SessionRecord>;

  constructor(store: Store) {
    this.sessions = store.collection<SessionRecord>(IDENTITY_COLLECTIONS.sessions);
  }

  async insert(session: SessionRecord): Promise<void> {
    await this.sessions.insertOne(session);
  }

  byHash(hash: string): Promise<SessionRecord | null> {
    return this.sessions.findOne({ hash });
  }

  /** Notes that a live session was just seen; the session as it is now (null when it ended meanwhile). */
  touch(sessionId: string, at: string): Promise<SessionRecord | null> {
    return this.sessions.updateOne({ id: sessionId, revoked_at: null }, { last_seen_at: at });
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
  async revoke(sessionId: string, at: string): Promise<boolean> {
    return (await this.sessions.updateOne({ id: sessionId, revoked_at: null }, { revoked_at: at })) !== null;
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

  /** Every session of every organization, ended ones too (tests look for what must never be stored). */
  all(): Promise<SessionRecord[]> {
    return this.sessions.find({});
  }

  async init(): Promise<void> {
    await this.sessions.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "user_id", fields: { user_id: 1 } },
    ]);
  }
}
