import type { complianceV1 } from "@verdict/proto";
import { anonymousAuditContext, auditContext } from "../http/auth.js";
import { route } from "../http/route.js";
import { CreateReportSchema, DownloadQuery, ReportKeyJwkSchema, ReportSchema } from "../http/complianceSchemas.js";
import { complianceGeneratedRoutes } from "../gen/compliance.rest.js";
import { IdParam } from "../http/schemas.js";
import { publicUrl } from "../http/restTypes.js";

/** Where the public half of the instance's report key is served (PEM; the JWK at `.jwk`). */
export const REPORT_KEY_PATH = "/.well-known/verdict-report-key.pem";

function reportJson(r: complianceV1.Report, apiBase: string) {
  const completed = r.status === "completed" && r.download_signature !== "";
  return {
    report_id: r.report_id,
    status: r.status,
    download_url: completed
      ? `${apiBase}/compliance/reports/${r.report_id}/download?expires=${r.download_expires}&signature=${r.download_signature}`
      : null,
    download_expires_at: completed ? new Date(r.download_expires * 1000).toISOString() : null,
    frameworks: r.frameworks,
    format: r.format,
    date_range: { start: r.date_range?.start ?? "", end: r.date_range?.end ?? "" },
    created_at: r.created_at,
    completed_at: r.completed_at || null,
    failure_reason: r.failure_reason || null,
    size_bytes: r.status === "completed" ? r.size_bytes : null,
    sha256: (completed && r.sha256) || null,
    signature: (completed && r.signature) || null,
    signature_algorithm: completed && r.signature ? ("Ed25519" as const) : null,
    signature_key_id: (completed && r.signature_key_id) || null,
    public_key_url: publicUrl(apiBase, REPORT_KEY_PATH),
  };
}

/**
 * The report routes, written by hand because their REST shape deliberately differs from the
 * proto's Report: the answer carries a signed download_url built from the public base URL (the
 * service keeps only the signature and its expiry), `date_range` is either `{start, end}` or
 * "<n>d" (two fields on the wire), creating answers 202 with a Location header, and a download
 * answers the file itself. The overview and framework routes are generated
 * (src/gen/compliance.rest.ts).
 */
export const complianceRoutes = [
  ...complianceGeneratedRoutes,
  route({
    method: "post",
    path: "/v1/compliance/reports",
    operationId: "createComplianceReport",
    errors: [422],
    summary:
      "Generate an evidence report (PDF, or OSCAL 1.1.2 in a ZIP) asynchronously; poll GET /v1/compliance/reports/{report_id}",
    tag: "Compliance",
    access: { kind: "scope", scope: "read:policies" },
    rateClass: "reports_create",
    body: CreateReportSchema,
    responses: { 202: { description: "Accepted: the report is generating (Location names it)", schema: ReportSchema } },
    handler: async ({ body, principal, requestId, clientIp, clients, apiBaseUrl }) => {
      const res = await clients.compliance.createReport({
        organization_id: principal!.organizationId,
        frameworks: body.frameworks,
        format: body.format,
        ...(typeof body.date_range === "string"
          ? { last_days: body.date_range }
          : { date_range: body.date_range, last_days: "" }),
        audit: auditContext(principal!, requestId, clientIp),
      });
      const report = res.report!;
      return {
        status: 202,
        body: reportJson(report, apiBaseUrl),
        headers: { Location: `/v1/compliance/reports/${report.report_id}` },
      };
    },
  }),
  route({
    method: "get",
    path: "/v1/compliance/reports/:report_id",
    operationId: "getComplianceReport",
    summary: "A report's status; once completed it carries a signed, expiring download_url",
    tag: "Compliance",
    access: { kind: "scope", scope: "read:policies" },
    rateClass: "reads",
    params: IdParam("report_id", "report"),
    responses: { 200: { description: "The report", schema: ReportSchema } },
    handler: async ({ params, principal, clients, apiBaseUrl }) => {
      const res = await clients.compliance.getReport({
        organization_id: principal!.organizationId,
        report_id: params.report_id,
      });
      return { status: 200, body: reportJson(res.report!, apiBaseUrl) };
    },
  }),
  route({
    method: "get",
    path: "/v1/compliance/reports/:report_id/download",
    operationId: "downloadComplianceReport",
    errors: [403, 410],
    summary:
      "Download a completed report through its signed link (no API key; 403 for a bad signature, 410 once expired)",
    tag: "Compliance",
    access: { kind: "public" },
    params: IdParam("report_id", "report"),
    query: DownloadQuery,
    responses: {
      200: { description: "The report file (attachment)", contentTypes: ["application/pdf", "application/zip"] },
    },
    handler: async ({ params, query, requestId, clientIp, clients }) => {
      const res = await clients.compliance.downloadReport({
        report_id: params.report_id,
        expires: Number(query.expires),
        signature: query.signature,
        audit: anonymousAuditContext(requestId, clientIp),
      });
      return {
        status: 200,
        file: { content: Buffer.from(res.content), contentType: res.content_type, filename: res.filename },
      };
    },
  }),
  route({
    method: "get",
    path: REPORT_KEY_PATH,
    operationId: "getReportPublicKey",
    summary: "The public key (Ed25519, PEM) that verifies report files' signatures; no API key (an auditor fetches it)",
    tag: "Compliance",
    access: { kind: "public" },
    responses: { 200: { description: "SubjectPublicKeyInfo PEM", contentTypes: ["application/x-pem-file"] } },
    handler: async ({ clients }) => {
      const key = await clients.compliance.getReportKey({});
      return {
        status: 200,
        file: {
          content: Buffer.from(key.public_key_pem),
          contentType: "application/x-pem-file",
          filename: "verdict-report-key.pem",
        },
      };
    },
  }),
  route({
    method: "get",
    path: REPORT_KEY_PATH.replace(/\.pem$/, ".jwk"),
    operationId: "getReportPublicKeyJwk",
    summary: "The report public key as a JSON Web Key (RFC 8037); no API key",
    tag: "Compliance",
    access: { kind: "public" },
    responses: { 200: { description: "The JWK", schema: ReportKeyJwkSchema } },
    handler: async ({ clients }) => {
      const key = await clients.compliance.getReportKey({});
      return {
        status: 200,
        body: { kty: "OKP", crv: "Ed25519", x: key.x, kid: key.key_id, alg: "EdDSA", use: "sig" },
      };
    },
  }),
];
