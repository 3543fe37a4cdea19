// Memberships, through the Store port: one person's role in one organization, and the open
// invitations. Every change is checked against `version`, so two admins never undo each other.
import type { Collection, Store } from "@verdict/store";
import type { Role } from "../domain/member.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

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

export class MemberRepo {
  private readonly members: Collection<MemberRecord>;

  constructor(store: Store) {
    this.members = store.collection<MemberRecord>(IDENTITY_COLLECTIONS.members);
  }

  membershipId(organizationId: string, userId: string): string {
    return `${organizationId}.${userId}`;
  }

  /** The person's membership of the organization, invited or active. */
  find(organizationId: string, userId: string): Promise<MemberRecord | null> {
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
  async insert(membership: MemberRecord): Promise<void> {
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
  activate(membership: MemberRecord, role: Role): Promise<MemberRecord | null> {
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
  delete(membership: MemberRecord): Promise<boolean> {
    return this.members.deleteOne({ id: membership.id, version: membership.version });
  }

  /** Deletes the person's membership of the organization, whatever its state; false when there was none. */
  end(organizationId: string, userId: string): Promise<boolean> {
    return this.members.deleteOne({ id: this.membershipId(organizationId, userId) });
  }

  /** Every membership of every organization (tests look for what must never be stored). */
  all(): Promise<MemberRecord[]> {
    return this.members.find({});
  }

  async init(): Promise<void> {
    await this.members.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "user_id", fields: { user_id: 1 } },
      { name: "invitation_hash", fields: { invitation_hash: 1 } },
    ]);
  }
}
