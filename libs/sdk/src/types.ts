// Names for the API's shapes. They all come from gen/openapi.ts, which is generated from the
// OpenAPI document the gateway builds from the zod schemas it validates with (scripts/sdk-gen.mjs),
// so the SDK's types and the server's validation have one source.
import type { components, paths } from "./gen/openapi.js";

type S = components["schemas"];

export type Evaluation = S["Evaluation"];
export type Violation = S["Violation"];
export type EvaluationList = S["EvaluationList"];
export type CreateEvaluation = S["CreateEvaluation"];
export type FileInput = S["FileInput"];
export type Policy = S["Policy"];
export type PolicySummary = S["PolicySummary"];
export type CreatePolicy = S["CreatePolicy"];
export type UpdatePolicy = S["UpdatePolicy"];
export type Repository = S["Repository"];
export type ConnectRepository = S["ConnectRepository"];
export type Organization = S["Organization"];
export type UpdateOrganization = S["UpdateOrganization"];
export type CreateOrganization = S["CreateOrganization"];
export type CreatedOrganization = S["CreatedOrganization"];
export type ApiKey = S["ApiKey"];
export type CreateApiKey = S["CreateApiKey"];
export type CreatedApiKey = S["CreatedApiKey"];
export type KeyVerification = S["KeyVerification"];
export type Health = S["Health"];
export type Readiness = S["Readiness"];
export type AuthHealth = S["AuthHealth"];
export type ComplianceOverview = S["ComplianceOverview"];
export type FrameworkDetail = S["FrameworkDetail"];
export type CreateReport = S["CreateReport"];
export type Report = S["Report"];
export type Webhook = S["Webhook"];
export type CreateWebhook = S["CreateWebhook"];
export type Finding = S["Finding"];
export type UpdateFinding = S["UpdateFinding"];
export type Connection = S["Connection"];
export type CreateConnection = S["CreateConnection"];
export type CreatedWebhook = S["CreatedWebhook"];
export type UpdateWebhook = S["UpdateWebhook"];
export type Delivery = S["Delivery"];
export type DeliveryList = S["DeliveryList"];
export type UpdateOrganizationLimits = S["UpdateOrganizationLimits"];
export type OperatorOrganization = S["OperatorOrganization"];
export type ApiErrorBody = S["Error"];
export type Member = S["Member"];
export type MemberList = S["MemberList"];
export type InviteMember = S["InviteMember"];
export type InvitedMember = S["InvitedMember"];
export type UpdateMember = S["UpdateMember"];
export type AcceptInvitation = S["AcceptInvitation"];
export type Login = S["Login"];
export type LoginResult = S["LoginResult"];
export type Session = S["Session"];
export type AuditEvent = S["AuditEvent"];
export type AuditEventList = S["AuditEventList"];
export type WebauthnOptions = S["WebauthnOptions"];
export type PasskeyAdded = S["PasskeyAdded"];
export type AcceptedInvitation = S["AcceptedInvitation"];
export type PasswordResetLink = S["PasswordResetLink"];
export type OAuthClient = S["OAuthClient"];
export type OAuthClientList = S["OAuthClientList"];
export type CreateOAuthClient = S["CreateOAuthClient"];
export type CreatedOAuthClient = S["CreatedOAuthClient"];
export type SsoConnection = S["SsoConnection"];
export type PutSsoConnection = S["PutSsoConnection"];
export type ScimToken = S["ScimToken"];
export type ScimTokenList = S["ScimTokenList"];
export type CreateScimToken = S["CreateScimToken"];
export type CreatedScimToken = S["CreatedScimToken"];

/** Boolean query parameters travel as "true"/"false"; the SDK takes booleans too. */
type Booleans<Q> = {
  [K in keyof Q]?: [Exclude<Q[K], undefined>] extends ["true" | "false"] ? boolean | "true" | "false" : Q[K];
};

export type ListFindingsQuery = NonNullable<paths["/v1/findings"]["get"]["parameters"]["query"]>;
export type ListEvaluationsQuery = Booleans<NonNullable<paths["/v1/evaluations"]["get"]["parameters"]["query"]>>;
export type ListDeliveriesQuery = NonNullable<
  paths["/v1/webhooks/{webhook_id}/deliveries"]["get"]["parameters"]["query"]
>;
export type ListAuditEventsQuery = NonNullable<paths["/v1/audit-events"]["get"]["parameters"]["query"]>;
export type ListPoliciesQuery = Booleans<NonNullable<paths["/v1/policies"]["get"]["parameters"]["query"]>>;

export type { components, paths };
