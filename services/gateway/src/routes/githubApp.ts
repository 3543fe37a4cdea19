// The GitHub App one-click set-up (the integrations service's manifest flow). Hand-written, and
// why: the manifest's URLs are on Verdict's public address, which only the gateway knows (the
// generated routes pass services paths, not addresses), and GitHub takes the manifest only as a
// form POSTed by the browser, which the dashboard's CSP (form-action 'self') does not allow: the
// form is a page of its own, with a CSP that allows exactly that GitHub.
import { createHash } from "node:crypto";
import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { z } from "zod";
import { integrationsV1 } from "@verdict/proto";
import type { Clients } from "../clients.js";
import {
  ConnectionSchema,
  CreateConnectionRequestSchema,
  connectionJson,
  integrationsClient,
} from "../gen/integrations.rest.js";
import { auditContext } from "../http/auth.js";
import { publicOrigin, publicUrl } from "../http/restTypes.js";
import { route } from "../http/route.js";
import { escapeHtml } from "../oauth/provider.js";

export const FORM_PATH = "/v1/integrations/github/app-manifests/form";

const StartSchema = z
  .object({
    // The connections' own rule (one pattern: a port above 65535 is refused there too).
    base_url: CreateConnectionRequestSchema.shape.base_url.default("https://api.github.com").meta({
      description: "GitHub's REST API: https://api.github.com, or https://HOST/api/v3 for an Enterprise Server",
      examples: ["https://github.example.com/api/v3"],
    }),
    organization: z
      .string()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, { message: "organization must be a GitHub organization's login" })
      .optional()
      .meta({ description: "The GitHub organization that owns the App; absent: the account of who creates it" }),
  })
  .strict()
  .meta({ id: "StartGitHubAppManifest" });

const StartedSchema = z
  .object({
    state: z.string().meta({ description: "Single use, for one hour, by this organization and caller only" }),
    form_url: z.string().meta({ description: "Open it in the browser: it posts the manifest to GitHub" }),
    action: z.string().meta({ description: "GitHub's new-App page the manifest is posted to" }),
    manifest: z.record(z.string(), z.unknown()).meta({ description: "The GitHub App manifest" }),
    connection_id: z.string().meta({ description: "The connection the App becomes" }),
    expires_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "GitHubAppManifest" });

const CompleteSchema = z
  .object({
    state: z.string().min(1).max(128),
    code: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[A-Za-z0-9_-]+$/, { message: "code must be the code GitHub redirected with" }),
  })
  .strict()
  .meta({ id: "CompleteGitHubAppManifest" });

export const gitHubAppRoutes = [
  route({
    method: "post",
    path: "/v1/integrations/github/app-manifests",
    operationId: "startGitHubAppManifest",
    summary:
      "Start the GitHub App one-click set-up: a manifest for github.com or an Enterprise Server, and a state for you alone (single use, one hour)",
    tag: "Integrations",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: StartSchema,
    errors: [422],
    errorNotes: {
      422: "base_url is at an address this instance does not allow (code PROVIDER_ADDRESS_NOT_ALLOWED)",
    },
    responses: { 201: { description: "The manifest, its state and the page that posts it", schema: StartedSchema } },
    handler: async ({ body, principal, requestId, clientIp, clients, apiBaseUrl }) => {
      const res = await integrationsClient(clients).startGitHubAppManifest(
        integrationsV1.StartGitHubAppManifestRequest.fromPartial({
          organization_id: principal!.organizationId,
          api_base_url: body.base_url,
          github_organization: body.organization ?? "",
          public_origin: publicOrigin(apiBaseUrl),
          audit: auditContext(principal!, requestId, clientIp),
        }),
      );
      return {
        status: 201,
        body: {
          state: res.state,
          form_url: publicUrl(apiBaseUrl, `${FORM_PATH}?state=${encodeURIComponent(res.state)}`),
          action: res.action,
          manifest: JSON.parse(res.manifest_json) as Record<string, unknown>,
          connection_id: res.connection_id,
          expires_at: res.expires_at,
        },
      };
    },
  }),
  route({
    method: "post",
    path: "/v1/integrations/github/app-manifests/conversions",
    operationId: "completeGitHubAppManifest",
    summary:
      "Finish the GitHub App set-up: GitHub's one-time code and the state it came back with become the connection",
    tag: "Integrations",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: CompleteSchema,
    errors: [422],
    errorNotes: {
      422: "The state is unknown, used, another organization's or another caller's (MANIFEST_STATE_INVALID) or expired (MANIFEST_STATE_EXPIRED); GitHub does not know the code (PROVIDER_NOT_FOUND on code)",
    },
    responses: { 201: { description: "The connection", schema: ConnectionSchema } },
    handler: async ({ body, principal, requestId, clientIp, clients, apiBaseUrl }) => {
      const res = await integrationsClient(clients).completeGitHubAppManifest(
        integrationsV1.CompleteGitHubAppManifestRequest.fromPartial({
          organization_id: principal!.organizationId,
          state: body.state,
          code: body.code,
          audit: auditContext(principal!, requestId, clientIp),
        }),
      );
      return { status: 201, body: connectionJson(res.connection!, apiBaseUrl) };
    },
  }),
];

const SUBMIT = 'document.getElementById("manifest").submit()';
const SUBMIT_HASH = `'sha256-${createHash("sha256").update(SUBMIT).digest("base64")}'`;

/** The page that posts a pending set-up's manifest to GitHub (GitHub takes it only as a form). */
export function manifestFormPage(action: string, manifestJson: string): { html: string; csp: string } {
  const html = [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><title>Create the Verdict GitHub App</title></head>',
    "<body>",
    `<form id="manifest" method="post" action="${escapeHtml(action)}">`,
    `<input type="hidden" name="manifest" value="${escapeHtml(manifestJson)}">`,
    "<p>Verdict sends you to GitHub to create its App.</p>",
    '<button type="submit">Continue to GitHub</button>',
    "</form>",
    `<script>${SUBMIT}</script>`,
    "</body></html>",
  ].join("\n");
  // Only this page's one script, and a form to that GitHub alone.
  const csp = `default-src 'none'; script-src ${SUBMIT_HASH}; form-action ${new URL(action).origin}; base-uri 'none'; frame-ancestors 'none'`;
  return { html, csp };
}

/** GET /v1/integrations/github/app-manifests/form?state=…: the form page of a pending set-up. */
export function mountGitHubAppManifestForm(app: Express, throttle: RequestHandler, opts: { clients: Clients }): void {
  app.get(FORM_PATH, throttle, (req: Request, res: Response, next: NextFunction) => {
    const state = typeof req.query.state === "string" ? req.query.state : "";
    let client: NonNullable<Clients["integrations"]>;
    try {
      client = integrationsClient(opts.clients);
    } catch (err) {
      return next(err);
    }
    client
      .getGitHubAppManifest({ state })
      .then(({ action, manifest_json }) => {
        const page = manifestFormPage(action, manifest_json);
        res
          .status(200)
          .set({
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": page.csp,
            "Cache-Control": "no-store",
            "Referrer-Policy": "no-referrer",
          })
          .send(page.html);
      })
      .catch(next);
  });
}

/** The OpenAPI path item of the form page (served outside the route table: HTML out). */
export function gitHubAppFormPaths(): Record<string, Record<string, Record<string, unknown>>> {
  return {
    [FORM_PATH]: {
      get: {
        operationId: "gitHubAppManifestForm",
        summary: "The page that posts a pending GitHub App set-up's manifest to GitHub (open form_url in a browser)",
        tags: ["Integrations"],
        security: [],
        parameters: [{ name: "state", in: "query", required: true, schema: { type: "string" } }],
        responses: {
          200: {
            description: "An HTML form, submitted at once",
            content: { "text/html": { schema: { type: "string" } } },
          },
          404: {
            description: "RESOURCE_NOT_FOUND: no such set-up under way (used, expired, or never started)",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        },
      },
    },
  };
}
