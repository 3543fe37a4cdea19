import { describe, expect, it } from "@jest/globals";
import { emitterEventNames } from "@octokit/webhooks";
import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gitHubAppManifest, manifestFormAction } from "./manifest.js";

const require = createRequire(import.meta.url);
const description = JSON.parse(
  readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.json"), "utf8"),
) as { components: { schemas: Record<string, object> } };

const manifest = gitHubAppManifest({
  name: "Verdict (acme)",
  publicUrl: "https://verdict.acme.test",
  webhookUrl: "https://verdict.acme.test/v1/integrations/github/events",
  redirectUrl: "https://verdict.acme.test/v1/integrations/github/manifest/callback",
});

describe("the GitHub App manifest Verdict offers", () => {
  it("asks for checks write and contents, pull requests and metadata read, and nothing else", () => {
    expect(manifest.default_permissions).toEqual({
      checks: "write",
      contents: "read",
      pull_requests: "read",
      metadata: "read",
    });
    // The names and levels are GitHub's: its description's app-permissions schema accepts them.
    const ajv = new Ajv({ strict: false });
    const permissions = { ...description.components.schemas["app-permissions"], additionalProperties: false };
    expect(ajv.validate(permissions, manifest.default_permissions)).toBe(true);
    expect(ajv.validate(permissions, { ...manifest.default_permissions, checks: "admin" })).toBe(false);
  });

  it("subscribes to the events Verdict reads, each an event GitHub delivers", () => {
    expect(manifest.default_events).toEqual(["pull_request", "push", "check_run", "check_suite", "repository"]);
    for (const event of manifest.default_events) expect(emitterEventNames).toContain(event);
    expect(manifest.hook_attributes).toEqual({
      url: "https://verdict.acme.test/v1/integrations/github/events",
      active: true,
    });
    expect(manifest.public).toBe(false);
  });

  it("is posted to the new-App page of github.com, an organization, or an Enterprise Server", () => {
    expect(manifestFormAction("st&te")).toBe("https://github.com/settings/apps/new?state=st%26te");
    expect(manifestFormAction("s", { organization: "acme corp" })).toBe(
      "https://github.com/organizations/acme%20corp/settings/apps/new?state=s",
    );
    expect(manifestFormAction("s", { webBaseUrl: "https://ghe.acme.test/" })).toBe(
      "https://ghe.acme.test/settings/apps/new?state=s",
    );
  });
});
