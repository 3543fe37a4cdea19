// SCIM's collections, through the Store port: the bearer tokens an identity provider provisions
// with, and the users and groups it keeps in step. A SCIM user's or group's record id is
// `<organization_id>.<scim id>`; writes are checked against `version` (SCIM's If-Match).
import type { Collection, Filter, Store } from "@verdict/store";
import { externalIdKey } from "../domain/scimQuery.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

/** A SCIM bearer token (`vdt_scim_…`): only its SHA-256 is kept. id `sct_…`. */
export interface ScimTokenRecord {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/**
 * A person as the organization's identity provider provisioned them. id =
 * `<organization_id>.<scim_id>`. The Verdict account is linked by email (a new account takes the
 * SCIM id as its user id); the membership exists while the SCIM user is active and linked.
 */
export interface ScimUserRecord {
  id: string;
  organization_id: string;
  /** The SCIM id (`user_…`). */
  scim_id: string;
  /** The linked Verdict account; null while the user has no email address. */
  user_id: string | null;
  /** Lowercased userName: unique in the organization. */
  user_name_key: string;
  /** externalId as given ("" when none): `externalId eq` filters find it through an index. */
  external_id: string;
  active: boolean;
  /** The SCIM attributes as stored (core at the top, extensions under their URN), without id and meta. */
  resource_json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A SCIM group. id = `<organization_id>.<group_id>`; the SCIM id is the group id (`grp_…`). */
export interface ScimGroupRecord {
  id: string;
  organization_id: string;
  group_id: string;
  display_name: string;
  /** Lowercased displayName (caseExact false), for `displayName eq` filters. */
  display_name_key: string;
  /** externalId as given ("" when none). */
  external_id: string;
  /** The SCIM ids of its members (SCIM users of the same organization). */
  member_ids: string[];
  /** externalId and any other stored attributes, as JSON. */
  resource_json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A SCIM list query, in creation order: what the store answers through its indexes. */
export interface ScimList<R> {
  count(): Promise<number>;
  page(skip: number, limit: number): Promise<R[]>;
  all(): Promise<R[]>;
}

export class ScimRepo {
  private readonly tokens: Collection<ScimTokenRecord>;
  private readonly users: Collection<ScimUserRecord>;
  private readonly groups: Collection<ScimGroupRecord>;

  constructor(store: Store) {
    this.tokens = store.collection<ScimTokenRecord>(IDENTITY_COLLECTIONS.scimTokens);
    this.users = store.collection<ScimUserRecord>(IDENTITY_COLLECTIONS.scimUsers);
    this.groups = store.collection<ScimGroupRecord>(IDENTITY_COLLECTIONS.scimGroups);
  }

  /** The organizations whose SCIM users link this account (accounts stored before binding was kept). */
  async organizationsLinking(userId: string): Promise<string[]> {
    return (await this.users.find({ user_id: userId })).map((u) => u.organization_id);
  }

  async insertToken(token: ScimTokenRecord): Promise<void> {
    await this.tokens.insertOne(token);
  }

  /** The organization's SCIM tokens, oldest id first. */
  tokensOf(organizationId: string): Promise<ScimTokenRecord[]> {
    return this.tokens.find({ organization_id: organizationId }, { sort: { id: 1 } });
  }

  /** Deletes one of the organization's SCIM tokens and answers it; null when there was none. */
  async deleteToken(organizationId: string, tokenId: string): Promise<ScimTokenRecord | null> {
    const token = await this.tokens.findOne({ id: tokenId, organization_id: organizationId });
    if (!token || !(await this.tokens.deleteOne({ id: tokenId, organization_id: organizationId }))) return null;
    return token;
  }

  tokenByHash(hash: string): Promise<ScimTokenRecord | null> {
    return this.tokens.findOne({ hash });
  }

  async touchToken(tokenId: string, at: string): Promise<void> {
    await this.tokens.updateOne({ id: tokenId }, { last_used_at: at });
  }

  /** One of the organization's SCIM users, by its SCIM id. */
  user(organizationId: string, scimId: string): Promise<ScimUserRecord | null> {
    return this.users.findOne({ id: `${organizationId}.${scimId}`, organization_id: organizationId });
  }

  /** The organization's SCIM user with this userName (lower-cased). */
  userByName(organizationId: string, userNameKey: string): Promise<ScimUserRecord | null> {
    return this.users.findOne({ organization_id: organizationId, user_name_key: userNameKey });
  }

  /** The organization's SCIM user linked to this Verdict account. */
  userOfAccount(organizationId: string, userId: string): Promise<ScimUserRecord | null> {
    return this.users.findOne({ organization_id: organizationId, user_id: userId });
  }

  /** The organization's SCIM users, oldest first. */
  usersOf(organizationId: string): Promise<ScimUserRecord[]> {
    return this.users.find({ organization_id: organizationId }, { sort: { created_at: 1 } });
  }

  /** The organization's SCIM users with these SCIM ids. */
  usersWithIds(organizationId: string, scimIds: string[]): Promise<ScimUserRecord[]> {
    return this.users.find({ organization_id: organizationId, scim_id: { $in: scimIds } });
  }

  /**
   * The organization's SCIM users matching `where` (indexed equalities domain/scimQuery.ts made of
   * a filter), in creation order: counted, a page of them, or all.
   */
  userList(organizationId: string, where: Filter): ScimList<ScimUserRecord> {
    return scimList(this.users, { ...where, organization_id: organizationId });
  }

  /** Stores a new SCIM user (DuplicateKeyError when its userName is taken). */
  async insertUser(user: ScimUserRecord): Promise<void> {
    await this.users.insertOne(user);
  }

  /** Sets fields of a SCIM user still at `version`; null when it changed meanwhile. */
  updateUser(id: string, version: number, set: Partial<ScimUserRecord>): Promise<ScimUserRecord | null> {
    return this.users.updateOne({ id, version }, set);
  }

  /** Deletes a SCIM user still at its version; false when it changed meanwhile. */
  deleteUser(user: ScimUserRecord): Promise<boolean> {
    return this.users.deleteOne({ id: user.id, version: user.version });
  }

  /** One of the organization's SCIM groups, by its SCIM id. */
  group(organizationId: string, groupId: string): Promise<ScimGroupRecord | null> {
    return this.groups.findOne({ id: `${organizationId}.${groupId}`, organization_id: organizationId });
  }

  /** The organization's SCIM groups (an organization has few). */
  groupsOf(organizationId: string): Promise<ScimGroupRecord[]> {
    return this.groups.find({ organization_id: organizationId });
  }

  /** The organization's SCIM groups, oldest first. */
  groupsByCreation(organizationId: string): Promise<ScimGroupRecord[]> {
    return this.groups.find({ organization_id: organizationId }, { sort: { created_at: 1 } });
  }

  /** The organization's SCIM groups matching `where`, in creation order (as userList). */
  groupList(organizationId: string, where: Filter): ScimList<ScimGroupRecord> {
    return scimList(this.groups, { ...where, organization_id: organizationId });
  }

  async insertGroup(group: ScimGroupRecord): Promise<void> {
    await this.groups.insertOne(group);
  }

  /** Sets fields of a SCIM group still at `version`; null when it changed meanwhile. */
  updateGroup(id: string, version: number, set: Partial<ScimGroupRecord>): Promise<ScimGroupRecord | null> {
    return this.groups.updateOne({ id, version }, set);
  }

  /** Deletes a SCIM group still at its version; false when it changed meanwhile. */
  deleteGroup(group: ScimGroupRecord): Promise<boolean> {
    return this.groups.deleteOne({ id: group.id, version: group.version });
  }

  /** Takes a SCIM user out of every group of the organization. */
  async removeFromGroups(organizationId: string, scimId: string): Promise<void> {
    for (const g of await this.groups.find({ organization_id: organizationId })) {
      if (!g.member_ids.includes(scimId)) continue;
      await this.groups.updateOne(
        { id: g.id },
        { member_ids: g.member_ids.filter((m) => m !== scimId), version: g.version + 1 },
      );
    }
  }

  async init(): Promise<void> {
    await this.tokens.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
    ]);
    // SCIM lists: filters on these attributes, and pages in creation order, through indexes.
    await this.users.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "user_name", fields: { organization_id: 1, user_name_key: 1 }, unique: true },
      { name: "user_id", fields: { organization_id: 1, user_id: 1 } },
      { name: "account", fields: { user_id: 1 } },
      { name: "external_id", fields: { organization_id: 1, external_id: 1 } },
      { name: "scim_id", fields: { organization_id: 1, scim_id: 1 } },
      { name: "created", fields: { organization_id: 1, created_at: 1 } },
    ]);
    await this.groups.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "display_name", fields: { organization_id: 1, display_name_key: 1 } },
      { name: "external_id", fields: { organization_id: 1, external_id: 1 } },
      { name: "group_id", fields: { organization_id: 1, group_id: 1 } },
      { name: "created", fields: { organization_id: 1, created_at: 1 } },
    ]);
    await this.backfillLookupKeys();
  }

  /** Records stored before the lookup keys existed get them (once: later starts find none). */
  private async backfillLookupKeys(): Promise<void> {
    for (const u of await this.users.find({ external_id: { $exists: false } })) {
      const resource = JSON.parse(u.resource_json) as Record<string, unknown>;
      await this.users.updateOne({ id: u.id }, { external_id: externalIdKey(resource) });
    }
    for (const g of await this.groups.find({ display_name_key: { $exists: false } })) {
      const resource = JSON.parse(g.resource_json) as Record<string, unknown>;
      await this.groups.updateOne(
        { id: g.id },
        { display_name_key: g.display_name.toLowerCase(), external_id: externalIdKey(resource) },
      );
    }
  }
}

function scimList<R extends { id: string }>(coll: Collection<R>, where: Filter): ScimList<R> {
  const sort = { created_at: 1 as const };
  return {
    count: () => coll.count(where),
    page: (skip, limit) => coll.find(where, { sort, skip, limit }),
    all: () => coll.find(where, { sort }),
  };
}
