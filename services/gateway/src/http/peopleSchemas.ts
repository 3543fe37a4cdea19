// Schemas of people and access: members, sign-in, sessions, MFA, the audit log.
import { AUDIT_EVENT_TYPES } from "@verdict/kit";
import { ListEvaluationsQuery } from "../gen/evaluation.rest.js";
import { MemberSchema } from "../gen/identity.rest.js";
import { ISO_DATE_OR_ZONED } from "./restTypes.js";
import { z } from "zod";

const ISO = z.string().meta({ format: "date-time" });
// A page's size and cursor: the rules the evaluation list's are generated with from the proto
// (an opaque cursor of id characters), so that every list pages alike.
const PAGE = ListEvaluationsQuery.shape;
const ROLE = z.enum(["owner", "admin", "member", "viewer"]);
// RFC 5321: a local part of at most 64 octets, an address of at most 254.
const EMAIL = z
  .email()
  .max(254)
  .refine((v) => v.indexOf("@") <= 64, { message: "email's part before @ must be at most 64 characters" })
  .meta({ examples: ["ada@example.com"] });
const PASSWORD = z.string().min(1).max(256);

export const InviteMemberSchema = z.object({ email: EMAIL, role: ROLE }).strict().meta({ id: "InviteMember" });

export const InvitedMemberSchema = MemberSchema.extend({
  invitation_url: z.string().meta({ description: "The link to send the invitee. Shown once; works once, for 7 days" }),
}).meta({ id: "InvitedMember" });

export const AcceptInvitationSchema = z
  .object({
    token: z.string().min(1).max(200).meta({ description: "The token of the invitation link (vdt_inv_…)" }),
    name: z.string().max(200).default("").meta({ description: "Required when joining Verdict for the first time" }),
    password: z.string().max(256).default("").meta({
      description:
        "A new password (at least 12 characters) for a brand-new account, or the existing account's password; not needed when signed in as the invited account",
    }),
  })
  .strict()
  .meta({ id: "AcceptInvitation" });

export const AcceptedInvitationSchema = z
  .object({ member: MemberSchema, organization_id: z.string().regex(/^org_/) })
  .meta({ id: "AcceptedInvitation" });

export const ChangePasswordSchema = z
  .object({
    current_password: PASSWORD,
    new_password: PASSWORD.meta({ description: "At least 12 characters" }),
  })
  .strict()
  .meta({ id: "ChangePassword" });

export const PasswordChangedSchema = z
  .object({
    sessions_ended: z.number().int().meta({ description: "How many other sessions of yours were ended" }),
  })
  .meta({ id: "PasswordChanged" });

export const PasswordResetLinkSchema = z
  .object({
    reset_url: z.string().meta({ description: "The link to give the person. Shown once; works once, for an hour" }),
    expires_at: ISO,
  })
  .meta({ id: "PasswordResetLink" });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200).meta({ description: "The token of the reset link (vdt_pwr_…)" }),
    new_password: PASSWORD.meta({ description: "At least 12 characters" }),
  })
  .strict()
  .meta({ id: "ResetPassword" });

export const LoginSchema = z
  .object({
    email: EMAIL,
    password: PASSWORD,
    organization_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "Which of your organizations to sign in to; default: your first" }),
  })
  .strict()
  .meta({ id: "Login" });

export const SessionSchema = z
  .object({
    id: z.string().regex(/^ses_/),
    user: z.object({ id: z.string().regex(/^user_/), email: z.string(), name: z.string(), mfa_enabled: z.boolean() }),
    organization: z.object({ id: z.string().regex(/^org_/), name: z.string() }),
    role: ROLE,
    scopes: z.array(z.string()),
    created_at: ISO,
    idle_expires_at: ISO,
    expires_at: ISO,
    mfa_enrolment_required: z.boolean(),
    csrf_token: z
      .string()
      .meta({ description: "Send it as X-CSRF-Token with every POST, PATCH or DELETE made with the session cookie" }),
  })
  .meta({ id: "Session", description: "Who is signed in" });

export const LoginResultSchema = z
  .object({
    mfa_required: z.boolean(),
    methods: z
      .array(z.enum(["webauthn", "totp", "recovery_code"]))
      .optional()
      .meta({ description: "When mfa_required: the second factors this person can give" }),
    mfa_token: z
      .string()
      .optional()
      .meta({ description: "When mfa_required: send it with the code to POST /auth/mfa/totp within 5 minutes" }),
    session: SessionSchema.optional().meta({
      description: "When signed in: the session (its token is in the cookie only)",
    }),
  })
  .meta({ id: "LoginResult" });

export const TotpLoginSchema = z
  .object({
    mfa_token: z.string().min(1).max(200),
    code: z.string().min(1).max(64).meta({ description: "The authenticator's 6-digit code, or a recovery code" }),
  })
  .strict()
  .meta({ id: "TotpLogin" });

export const TotpEnrolmentSchema = z
  .object({
    secret: z.string().meta({ description: "Base32, for typing into an authenticator" }),
    otpauth_uri: z.string().meta({ description: "otpauth:// URI, for a QR code" }),
  })
  .meta({ id: "TotpEnrolment" });

export const ConfirmTotpSchema = z
  .object({ code: z.string().min(1).max(16) })
  .strict()
  .meta({ id: "ConfirmTotp" });

export const TotpEnabledSchema = z
  .object({
    recovery_codes: z.array(z.string()).meta({ description: "Shown once. Each works once instead of a code" }),
    session: SessionSchema.meta({ description: "The session was replaced (a new cookie and CSRF token)" }),
  })
  .meta({ id: "TotpEnabled" });

export const ListAuditEventsQuery = z
  .object({
    actor: z
      .string()
      .max(128)
      .regex(/^[A-Za-z0-9_]+$/, { message: "must be an id (user_…, key_…)" })
      .optional()
      .meta({ description: "Only events by this user or API key" }),
    type: z.enum(AUDIT_EVENT_TYPES).optional(),
    target_type: z
      .string()
      .max(64)
      .regex(/^[a-z_]+$/, { message: "must be a kind of object (policy, webhook, user, …)" })
      .optional()
      .meta({ description: "Only events about this kind of object: an event's target.type (docs/audit.md)" }),
    target_id: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: "Only events about the object with this id: an event's target.id" }),
    since: ISO_DATE_OR_ZONED.optional().meta({ description: "Inclusive" }),
    until: ISO_DATE_OR_ZONED.optional().meta({ description: "Exclusive" }),
    limit: PAGE.limit,
    cursor: PAGE.cursor,
  })
  .strict();

export const AuditEventSchema = z
  .object({
    id: z.string().regex(/^aud_/),
    type: z.enum(AUDIT_EVENT_TYPES),
    actor: z
      .object({ type: z.enum(["user", "api_key", "system", "anonymous"]), id: z.string(), ip: z.string().nullable() })
      .meta({ description: "anonymous: a request without a credential (a signed report download link)" }),
    credential: z
      .object({ type: z.enum(["api_key", "session", "oauth_client"]), id: z.string() })
      .nullable()
      .meta({ description: "How the actor authenticated: the key's, session's or OAuth client's id (never a secret)" }),
    request_id: z.string().nullable().meta({ description: "The X-Request-Id of the request that made the change" }),
    seq: z.number().int().meta({ description: "The event's number in the organization's hash chain (1, 2, …)" }),
    prev_hash: z.string().meta({ description: "SHA-256 (hex) of the event before it; zeros for the first" }),
    hash: z.string().meta({ description: "SHA-256 (hex) of the event's canonical form (docs/audit.md)" }),
    target: z.object({ type: z.string(), id: z.string() }),
    occurred_at: ISO,
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "Event-specific facts, never a secret; for a configuration change, `changes` maps each changed field to {before, after}",
    }),
  })
  .meta({ id: "AuditEvent" });

export const AuditEventListSchema = z
  .object({
    audit_events: z.array(AuditEventSchema),
    pagination: z.object({ next_cursor: z.string().nullable(), has_more: z.boolean() }),
  })
  .meta({ id: "AuditEventList" });

const CREDENTIAL_JSON = z
  .record(z.string(), z.unknown())
  .meta({ description: "The credential's toJSON() (WebAuthn Level 3), as the browser answers it" });

export const WebauthnOptionsSchema = z
  .object({
    options: z
      .record(z.string(), z.unknown())
      .meta({ description: "For PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON" }),
  })
  .meta({ id: "WebauthnOptions" });

export const PasskeyRegistrationSchema = z
  .object({
    response: CREDENTIAL_JSON,
    name: z.string().max(100).optional().meta({ description: 'A name to recognise it by ("YubiKey", "laptop")' }),
  })
  .strict()
  .meta({ id: "PasskeyRegistration" });

export const PasskeySchema = z
  .object({
    id: z.string().meta({ description: "The credential id (base64url)" }),
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable().meta({ description: "The last sign-in with it; null before the first" }),
    device_type: z
      .enum(["singleDevice", "multiDevice", "unknown"])
      .meta({ description: "multiDevice: a synced passkey; unknown: registered before Verdict kept this" }),
    backed_up: z.boolean(),
    transports: z.array(z.string()),
    version: z.number().int().min(1).meta({
      description:
        "Up by one with each rename: send it back (If-Match or version) so a change never overwrites another",
    }),
  })
  .meta({ id: "Passkey" });

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) }).meta({ id: "PasskeyList" });

export const RenamePasskeySchema = z
  .object({
    name: z.string().min(1).max(100).meta({ description: 'A name to recognise it by ("YubiKey", "laptop")' }),
    version: z.number().int().min(1).optional().meta({
      description: "The version read (as If-Match does): 412 VERSION_MISMATCH if it was renamed or deleted since",
    }),
  })
  .strict()
  .meta({ id: "RenamePasskey" });

export const PasskeyAddedSchema = z
  .object({
    recovery_codes: z
      .array(z.string())
      .meta({ description: "Shown once, when this is the first second factor; else empty" }),
    session: SessionSchema.meta({ description: "The session was replaced (a new cookie and CSRF token)" }),
  })
  .meta({ id: "PasskeyAdded" });

export const PasskeyLoginOptionsSchema = z
  .object({ mfa_token: z.string().min(1).max(200) })
  .strict()
  .meta({ id: "PasskeyLoginOptions" });

export const PasskeyLoginSchema = z
  .object({ mfa_token: z.string().min(1).max(200), response: CREDENTIAL_JSON })
  .strict()
  .meta({ id: "PasskeyLogin" });
