// gRPC handlers: map proto <-> use cases, nothing else.
import type { AsyncService } from "@verdict/kit";
import { identityV1 } from "@verdict/proto";
import type { IdentityDeps } from "./deps.js";
import type { Environment, Expiration } from "./domain/apiKey.js";
import type { Plan } from "./domain/organization.js";
import type { KeyRecord } from "./repo.js";
import { createApiKey } from "./usecases/apiKeys/createApiKey.js";
import { listApiKeys } from "./usecases/apiKeys/listApiKeys.js";
import { revokeApiKey } from "./usecases/apiKeys/revokeApiKey.js";
import { createOrganization } from "./usecases/organizations/createOrganization.js";
import { getOrganization, type OrganizationView } from "./usecases/organizations/getOrganization.js";
import { getOrganizationSettings } from "./usecases/organizations/getOrganizationSettings.js";
import { updateOrganization } from "./usecases/organizations/updateOrganization.js";
import { updateOrganizationLimits } from "./usecases/organizations/updateOrganizationLimits.js";
import type { OrgSettings } from "./domain/organization.js";
import { verifyKey } from "./usecases/verifyKey.js";
import type { Actor } from "./usecases/audit/recordAudit.js";
import { listAuditEvents } from "./usecases/audit/listAuditEvents.js";
import { acceptInvitation } from "./usecases/members/acceptInvitation.js";
import { changePassword } from "./usecases/passwords/changePassword.js";
import { issuePasswordReset } from "./usecases/passwords/issuePasswordReset.js";
import { resetPassword } from "./usecases/passwords/resetPassword.js";
import { inviteMember } from "./usecases/members/inviteMember.js";
import { listMembers } from "./usecases/members/listMembers.js";
import type { MemberView } from "./usecases/members/memberView.js";
import { removeMember } from "./usecases/members/removeMember.js";
import { updateMemberRole } from "./usecases/members/updateMemberRole.js";
import { completeTotpLogin } from "./usecases/mfa/completeTotpLogin.js";
import { confirmTotpEnrolment } from "./usecases/mfa/confirmTotpEnrolment.js";
import { startTotpEnrolment } from "./usecases/mfa/startTotpEnrolment.js";
import { finishPasskeyLogin } from "./usecases/mfa/finishPasskeyLogin.js";
import { finishPasskeyRegistration } from "./usecases/mfa/finishPasskeyRegistration.js";
import { deletePasskey, listPasskeys, renamePasskey, type PasskeyView } from "./usecases/mfa/passkeys.js";
import { startPasskeyLogin } from "./usecases/mfa/startPasskeyLogin.js";
import { startPasskeyRegistration, type RelyingParty } from "./usecases/mfa/startPasskeyRegistration.js";
import { login } from "./usecases/sessions/login.js";
import { logout } from "./usecases/sessions/logout.js";
import type { SessionView } from "./usecases/sessions/sessionView.js";
import { verifySession } from "./usecases/sessions/verifySession.js";
import type { OAuthClientRecord } from "./repos/oauthRepo.js";
import type { AuditRecord } from "./repos/auditRepo.js";
import { createOAuthClient } from "./usecases/oauth/createOAuthClient.js";
import { deleteOAuthClient } from "./usecases/oauth/deleteOAuthClient.js";
import { listOAuthClients } from "./usecases/oauth/listOAuthClients.js";
import { consumeArtifact } from "./usecases/oauth/consumeArtifact.js";
import { destroyArtifact } from "./usecases/oauth/destroyArtifact.js";
import { findArtifact } from "./usecases/oauth/findArtifact.js";
import { upsertArtifact } from "./usecases/oauth/upsertArtifact.js";
import { getOAuthAccount } from "./usecases/oauth/getOAuthAccount.js";
import { getOAuthClientRegistration } from "./usecases/oauth/getOAuthClientRegistration.js";
import { recordOAuthEvent } from "./usecases/oauth/recordOAuthEvent.js";
import { verifyAccessToken } from "./usecases/oauth/verifyAccessToken.js";
import type { ScimTokenRecord } from "./repos/scimRepo.js";
import { handleScim } from "./usecases/scim/handleScim.js";
import { createScimToken } from "./usecases/scim/createScimToken.js";
import { deleteScimToken } from "./usecases/scim/deleteScimToken.js";
import { listScimTokens } from "./usecases/scim/listScimTokens.js";
import { ssoHandlers } from "./ssoGrpc.js";

type Def = typeof identityV1.IdentityServiceService;

function toOrganization(o: OrganizationView): identityV1.Organization {
  return {
    id: o.id,
    name: o.name,
    plan: o.plan,
    members_count: o.members_count,
    repositories_count: o.repositories_count,
    created_at: o.created_at,
    settings: toSettings(o.settings),
    rate_limits: { ...o.rate_limits },
  };
}

function toSettings(s: OrgSettings): identityV1.OrganizationSettings {
  return {
    default_severity: s.default_severity,
    require_evaluation_pass: s.require_evaluation_pass,
    allow_inline_suppression: s.allow_inline_suppression,
    require_mfa: s.require_mfa,
  };
}

function toMember(m: MemberView): identityV1.Member {
  return { ...m, invitation_expires_at: m.invitation_expires_at ?? undefined };
}

function toSession(s: SessionView): identityV1.Session {
  return { ...s, rate_limits: { ...s.rate_limits } };
}

function toAuditEvent(e: AuditRecord): identityV1.AuditEvent {
  return {
    id: e.id,
    type: e.type,
    actor: e.actor,
    target_type: e.target_type,
    target_id: e.target_id,
    occurred_at: e.occurred_at,
    data_json: JSON.stringify(e.data),
  };
}

function fromRp(rp: identityV1.RelyingParty | undefined): RelyingParty {
  return { rpId: rp?.rp_id ?? "", origin: rp?.origin ?? "" };
}

const ACTOR_TYPES = new Set(["user", "api_key", "system"]);

function fromActor(a: identityV1.Actor | undefined): Actor {
  return a && ACTOR_TYPES.has(a.type)
    ? { type: a.type as Actor["type"], id: a.id, ip: a.ip }
    : { type: "system", id: "verdict", ip: "" };
}

function toOAuthClient(c: OAuthClientRecord): identityV1.OAuthClient {
  return {
    id: c.id,
    name: c.name,
    redirect_uris: c.redirect_uris,
    scopes: c.scopes,
    public: c.public,
    created_at: c.created_at,
  };
}

function toApiKey(k: KeyRecord): identityV1.ApiKey {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    environment: k.environment,
    prefix: k.prefix,
    created_at: k.created_at,
    expires_at: k.expires_at ?? undefined,
    last_used_at: k.last_used_at ?? undefined,
    // A retired operator key works no more: lists show it revoked from its retirement on.
    revoked_at: k.revoked_at ?? k.retired_at ?? undefined,
    ip_allowlist: k.ip_allowlist,
    operator: k.operator,
  };
}

function toScimToken(t: ScimTokenRecord): identityV1.ScimToken {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    created_at: t.created_at,
    expires_at: t.expires_at ?? undefined,
    last_used_at: t.last_used_at ?? undefined,
  };
}

function toPasskey(p: PasskeyView): identityV1.Passkey {
  return { ...p, last_used_at: p.last_used_at ?? undefined };
}

export function identityHandlers(deps: IdentityDeps): AsyncService<Def> {
  return {
    ...ssoHandlers(deps, fromActor, toSession),
    async verifyKey(req) {
      const { key, org, scopes } = await verifyKey(deps, { key: req.key, clientIp: req.client_ip });
      return {
        key_id: key.id,
        organization_id: org.id,
        organization_name: org.name,
        scopes,
        expires_at: key.expires_at ?? undefined,
        operator: key.operator,
        rate_limits: { ...org.rate_limits },
      };
    },
    async createOrganization(req) {
      const res = await createOrganization(deps, {
        name: req.name,
        plan: (req.plan || "free") as Plan,
        rateLimits: req.rate_limits,
      });
      return { organization: toOrganization(res.org), api_key: toApiKey(res.keyRecord), key: res.key };
    },
    async updateOrganizationLimits(req) {
      return {
        organization: toOrganization(
          await updateOrganizationLimits(deps, { organizationId: req.organization_id, limits: req.rate_limits ?? {} }),
        ),
      };
    },
    async getOrganization(req) {
      return { organization: toOrganization(await getOrganization(deps, { organizationId: req.organization_id })) };
    },
    async getOrganizationSettings(req) {
      return { settings: toSettings(await getOrganizationSettings(deps, { organizationId: req.organization_id })) };
    },
    async updateOrganization(req) {
      const org = await updateOrganization(deps, {
        organizationId: req.organization_id,
        name: req.name,
        defaultSeverity: req.default_severity as "error" | "warning" | undefined,
        requireEvaluationPass: req.require_evaluation_pass,
        allowInlineSuppression: req.allow_inline_suppression,
        requireMfa: req.require_mfa,
      });
      return { organization: toOrganization(org) };
    },
    async listApiKeys(req) {
      return { api_keys: (await listApiKeys(deps, { organizationId: req.organization_id })).map(toApiKey) };
    },
    async createApiKey(req) {
      const { record, key } = await createApiKey(deps, {
        organizationId: req.organization_id,
        name: req.name,
        scopes: req.scopes,
        expiration: req.expiration as Expiration,
        ...(req.environment ? { environment: req.environment as Environment } : {}),
        ipAllowlist: req.ip_allowlist,
        ...(req.creator_key_id ? { creatorKeyId: req.creator_key_id } : {}),
        ...(req.creator_user_id ? { creatorUserId: req.creator_user_id } : {}),
        actor: fromActor(req.actor),
      });
      return { api_key: toApiKey(record), key };
    },
    async revokeApiKey(req) {
      await revokeApiKey(deps, { organizationId: req.organization_id, keyId: req.key_id, actor: fromActor(req.actor) });
      return {};
    },
    async listOAuthClients(req) {
      return {
        oauth_clients: (await listOAuthClients(deps, { organizationId: req.organization_id })).map(toOAuthClient),
      };
    },
    async createOAuthClient(req) {
      const { record, secret } = await createOAuthClient(deps, {
        organizationId: req.organization_id,
        name: req.name,
        redirectUris: req.redirect_uris,
        scopes: req.scopes,
        public: req.public,
        actor: fromActor(req.actor),
      });
      return { oauth_client: toOAuthClient(record), ...(secret ? { client_secret: secret } : {}) };
    },
    async deleteOAuthClient(req) {
      await deleteOAuthClient(deps, {
        organizationId: req.organization_id,
        clientId: req.client_id,
        actor: fromActor(req.actor),
      });
      return {};
    },
    async oAuthArtifactUpsert(req) {
      await upsertArtifact(deps, {
        model: req.model,
        id: req.id,
        payloadJson: req.payload_json,
        expiresIn: Number(req.expires_in),
      });
      return {};
    },
    async oAuthArtifactFind(req) {
      const payload = await findArtifact(deps, {
        model: req.model,
        ...(req.id ? { id: req.id } : {}),
        ...(req.uid ? { uid: req.uid } : {}),
        ...(req.user_code ? { userCode: req.user_code } : {}),
      });
      return payload === null ? {} : { payload_json: payload };
    },
    async oAuthArtifactConsume(req) {
      await consumeArtifact(deps, { model: req.model, id: req.id });
      return {};
    },
    async oAuthArtifactDestroy(req) {
      await destroyArtifact(deps, { model: req.model, id: req.id });
      return {};
    },
    async oAuthArtifactRevokeGrant(req) {
      await deps.oauth.revokeGrant(req.grant_id);
      return {};
    },
    async getOAuthClientRegistration(req) {
      const c = await getOAuthClientRegistration(deps, { clientId: req.client_id });
      return { oauth_client: toOAuthClient(c), organization_id: c.organization_id, secret_hash: c.secret_hash ?? "" };
    },
    async getOAuthAccount(req) {
      const a = await getOAuthAccount(deps, { accountId: req.account_id });
      return {
        user_id: a.userId,
        organization_id: a.organizationId,
        email: a.email,
        name: a.name,
        role_scopes: a.roleScopes,
      };
    },
    async verifyAccessToken(req) {
      const v = await verifyAccessToken(deps, { token: req.token });
      return {
        organization_id: v.org.id,
        organization_name: v.org.name,
        scopes: v.scopes,
        expires_at: v.expiresAt,
        rate_limits: { ...v.org.rate_limits },
        user_id: v.userId,
        client_id: v.clientId,
      };
    },
    async getOAuthServerSecret() {
      return { secret: deps.oauthServerSecret };
    },
    async recordOAuthEvent(req) {
      await recordOAuthEvent(deps, {
        organizationId: req.organization_id,
        type: req.type,
        actor: fromActor(req.actor),
        clientId: req.client_id,
        grantId: req.grant_id,
        scopes: req.scopes,
        reason: req.reason,
      });
      return {};
    },
    async listMembers(req) {
      return { members: (await listMembers(deps, { organizationId: req.organization_id })).map(toMember) };
    },
    async inviteMember(req) {
      const res = await inviteMember(deps, {
        organizationId: req.organization_id,
        email: req.email,
        role: req.role,
        actor: fromActor(req.actor),
        ...(req.inviter_user_id ? { inviterUserId: req.inviter_user_id } : {}),
      });
      return { member: toMember(res.member), invitation_token: res.token };
    },
    async updateMemberRole(req) {
      const member = await updateMemberRole(deps, {
        organizationId: req.organization_id,
        userId: req.user_id,
        role: req.role,
        actor: fromActor(req.actor),
        ...(req.changer_user_id ? { changerUserId: req.changer_user_id } : {}),
      });
      return { member: toMember(member) };
    },
    async removeMember(req) {
      await removeMember(deps, {
        organizationId: req.organization_id,
        userId: req.user_id,
        actor: fromActor(req.actor),
        ...(req.remover_user_id ? { removerUserId: req.remover_user_id } : {}),
      });
      return {};
    },
    async acceptInvitation(req) {
      const res = await acceptInvitation(deps, {
        token: req.token,
        name: req.name,
        password: req.password,
        clientIp: req.client_ip,
        ...(req.session_user_id ? { sessionUserId: req.session_user_id } : {}),
      });
      return { member: toMember(res.member), organization_id: res.organizationId };
    },
    async changePassword(req) {
      const res = await changePassword(deps, {
        sessionId: req.session_id,
        userId: req.user_id,
        organizationId: req.organization_id,
        currentPassword: req.current_password,
        newPassword: req.new_password,
        clientIp: req.client_ip,
      });
      return { sessions_ended: res.sessionsEnded };
    },
    async issuePasswordReset(req) {
      const res = await issuePasswordReset(deps, {
        organizationId: req.organization_id,
        userId: req.user_id,
        actor: fromActor(req.actor),
        ...(req.issuer_user_id ? { issuerUserId: req.issuer_user_id } : {}),
      });
      return { reset_token: res.token, expires_at: res.expiresAt };
    },
    async resetPassword(req) {
      const res = await resetPassword(deps, {
        token: req.token,
        newPassword: req.new_password,
        clientIp: req.client_ip,
      });
      return { sessions_ended: res.sessionsEnded };
    },
    async login(req) {
      const res = await login(deps, {
        email: req.email,
        password: req.password,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
        ...(req.organization_id ? { organizationId: req.organization_id } : {}),
      });
      if (res.kind === "mfa")
        return { mfa_required: true, methods: res.methods, mfa_token: res.mfaToken, session_token: "" };
      return {
        mfa_required: false,
        methods: [],
        mfa_token: "",
        session_token: res.token,
        session: toSession(res.session),
      };
    },
    async completeTotpLogin(req) {
      const res = await completeTotpLogin(deps, {
        mfaToken: req.mfa_token,
        code: req.code,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async verifySession(req) {
      return { session: toSession(await verifySession(deps, { token: req.session_token })) };
    },
    async logout(req) {
      await logout(deps, { token: req.session_token, clientIp: req.client_ip });
      return {};
    },
    async startTotpEnrolment(req) {
      const res = await startTotpEnrolment(deps, { sessionToken: req.session_token });
      return { secret: res.secret, otpauth_uri: res.uri };
    },
    async confirmTotpEnrolment(req) {
      const res = await confirmTotpEnrolment(deps, {
        sessionToken: req.session_token,
        code: req.code,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyRegistration(req) {
      return {
        options_json: await startPasskeyRegistration(deps, { sessionToken: req.session_token, rp: fromRp(req.rp) }),
      };
    },
    async finishPasskeyRegistration(req) {
      const res = await finishPasskeyRegistration(deps, {
        sessionToken: req.session_token,
        rp: fromRp(req.rp),
        responseJson: req.response_json,
        name: req.name,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyLogin(req) {
      return { options_json: await startPasskeyLogin(deps, { mfaToken: req.mfa_token, rp: fromRp(req.rp) }) };
    },
    async finishPasskeyLogin(req) {
      const res = await finishPasskeyLogin(deps, {
        mfaToken: req.mfa_token,
        rp: fromRp(req.rp),
        responseJson: req.response_json,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async listPasskeys(req) {
      return { passkeys: (await listPasskeys(deps, { sessionToken: req.session_token })).map(toPasskey) };
    },
    async renamePasskey(req) {
      const passkey = await renamePasskey(deps, {
        sessionToken: req.session_token,
        passkeyId: req.passkey_id,
        name: req.name,
        expectedVersion: req.expected_version,
      });
      return { passkey: toPasskey(passkey) };
    },
    async deletePasskey(req) {
      await deletePasskey(deps, {
        sessionToken: req.session_token,
        passkeyId: req.passkey_id,
        clientIp: req.client_ip,
        expectedVersion: req.expected_version,
      });
      return {};
    },
    async listScimTokens(req) {
      return { scim_tokens: (await listScimTokens(deps, { organizationId: req.organization_id })).map(toScimToken) };
    },
    async createScimToken(req) {
      const { record, token } = await createScimToken(deps, {
        organizationId: req.organization_id,
        name: req.name,
        expiration: (req.expiration || "never") as Expiration,
        actor: fromActor(req.actor),
      });
      return { scim_token: toScimToken(record), token };
    },
    async deleteScimToken(req) {
      await deleteScimToken(deps, {
        organizationId: req.organization_id,
        tokenId: req.token_id,
        actor: fromActor(req.actor),
      });
      return {};
    },
    async handleScim(req) {
      const res = await handleScim(deps, {
        token: req.token,
        method: req.method,
        path: req.path,
        query: req.query,
        bodyJson: req.body_json,
        ifMatch: req.if_match,
        ifNoneMatch: req.if_none_match,
        baseUrl: req.base_url,
        clientIp: req.client_ip,
      });
      return {
        status: res.status,
        body_json: res.body === undefined ? "" : JSON.stringify(res.body),
        etag: res.etag ?? "",
        location: res.location ?? "",
      };
    },
    async listAuditEvents(req) {
      const page = await listAuditEvents(deps, {
        organizationId: req.organization_id,
        ...(req.actor ? { actor: req.actor } : {}),
        ...(req.type ? { type: req.type } : {}),
        ...(req.since ? { since: req.since } : {}),
        ...(req.until ? { until: req.until } : {}),
        limit: req.limit > 0 ? Math.min(req.limit, 100) : 20,
        ...(req.cursor ? { cursor: req.cursor } : {}),
      });
      return { events: page.events.map(toAuditEvent), next_cursor: page.next_cursor, has_more: page.has_more };
    },
  };
}
