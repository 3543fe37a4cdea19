// The dashboard's Connections page in Chromium against a running all-in-one, a real Gitea
// (scripts/install-gitea.sh) and GitHub's REST description served by Prism: a provider refused on
// the field the API names, a Gitea connection made, listed with its health and its webhook URL
// (copied), deleted after a confirmation, at desktop and phone width; a GitHub App created in one
// click (the manifest flow); a viewer sees the list and nothing to change it with.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Api } from "../support/api.js";
import { axe, launchChromium, layoutProblems, poll, signIn } from "../support/browser.js";
import { startGitea, type Gitea } from "../support/gitea.js";
import {
  gitHubDescription,
  startFront,
  startPrism,
  type Prism,
  type PrismFront,
} from "../../services/integrations/test/support/prism.js";
import { addMember } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const PASSWORD = "correct horse battery staple";
const OWNER = "owen@example.test";
const VIEWER = "vera@example.test";
const SECRET = "connections-page-secret-0123456789";

let gitea: Gitea;
let prism: Prism;
let front: PrismFront;
let v: Verdict;
let api: Api;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;

beforeAll(async () => {
  // Gitea runs on 127.0.0.1: the operator allows that address (and only that one) for providers.
  // GitHub's API: Prism serving GitHub's own REST description, behind a recording front.
  [gitea, v, browser, prism] = await Promise.all([
    startGitea(),
    startVerdict({ env: { VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "127.0.0.1" } }),
    launchChromium(),
    startPrism(gitHubDescription()),
  ]);
  front = await startFront(prism.url);
  base = `http://localhost:${v.port}`;
  api = new Api(v.url, v.bootstrapKey);
  await addMember(api, OWNER, "owner", PASSWORD);
  await addMember(api, VIEWER, "viewer", PASSWORD);
  token = await gitea.createToken("verdict-dashboard");
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, base, OWNER, PASSWORD);
  await page.getByRole("link", { name: "Connections" }).click();
  await page.getByRole("heading", { name: "Connections" }).waitFor();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await v?.destroy();
  await gitea?.stop();
  await front?.close();
  await prism?.stop();
});

/** The form that connects a provider with its credentials. */
const form = () => page.locator("form").filter({ has: page.getByRole("button", { name: "Connect", exact: true }) });
/** The error Mantine shows under the field with that label; null when none. */
const fieldError = async (label: string) => {
  const error = page
    .locator(".mantine-InputWrapper-root")
    .filter({ has: page.getByLabel(label) })
    .locator(".mantine-InputWrapper-error");
  return (await error.count()) ? error.first().textContent() : null;
};
/** The URL as the page shows it (the API answers it on the address it was asked at). */
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const listed = async () => (await api.get("/v1/integrations/connections")).body.connections as any[];

describe("the Connections page", () => {
  it("refuses a provider on the field the API names, then connects Gitea and lists it with its webhook URL", async () => {
    expect(await page.getByTestId("empty").textContent()).toBe("No provider connected yet.");
    // An address this instance does not allow: the API's refusal on the URL field.
    await form().getByLabel("Gitea URL").fill("http://10.20.30.40:3000");
    await form().getByLabel("Access token").fill(token);
    await form().getByLabel("Webhook secret").fill(SECRET);
    await form().getByRole("button", { name: "Connect" }).click();
    await poll(async () => (await fieldError("Gitea URL"))?.includes("PROVIDER_ADDRESS_NOT_ALLOWED") ?? false, true);
    // Gitea refuses the token: its error on the token field.
    await form().getByLabel("Gitea URL").fill(gitea.url);
    await form().getByLabel("Access token").fill("0".repeat(40));
    await form().getByRole("button", { name: "Connect" }).click();
    await poll(async () => (await fieldError("Access token"))?.includes("PROVIDER_UNAUTHORIZED") ?? false, true);
    expect(await fieldError("Gitea URL")).toBeNull();
    // A secret too short: the schema's error on its field.
    await form().getByLabel("Access token").fill(token);
    await form().getByLabel("Webhook secret").fill("short");
    await form().getByRole("button", { name: "Connect" }).click();
    await poll(async () => (await fieldError("Webhook secret"))?.includes("16") ?? false, true);
    expect(await listed()).toEqual([]);
    // The right token and secret: connected.
    await form().getByLabel("Webhook secret").fill(SECRET);
    await form().getByRole("button", { name: "Connect" }).click();
    await page.getByTestId("created-connection").waitFor();
    const [made] = await listed();
    expect(made).toMatchObject({ provider: "gitea", base_url: gitea.url, status: "active" });
    expect(await page.getByTestId("created-events-url").textContent()).toBe(`${base}${pathOf(made.events_url)}`);
    // Write-only: the token and the secret typed are gone from the page.
    expect(await form().getByLabel("Access token").inputValue()).toBe("");
    expect(await form().getByLabel("Webhook secret").inputValue()).toBe("");
    const html = await page.content();
    expect(html).not.toContain(token);
    expect(html).not.toContain(SECRET);
    // Listed with its health and webhook URL; Copy puts the URL on the clipboard.
    const row = page.getByTestId("connection");
    await row.waitFor();
    expect(await row.textContent()).toContain(gitea.url);
    expect(await row.getByTestId("connection-status").textContent()).toBe("healthy");
    // Gitea's tokens do not expire.
    expect(await row.getByTestId("token-expiry").textContent()).toBe("never");
    await row.getByRole("button", { name: `Copy webhook URL of ${gitea.url}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}${pathOf(made.events_url)}`);
    expect(await axe(page)).toEqual([]);
    expect(await layoutProblems(page)).toEqual({});
  });

  it("shows a GitHub App's errors on the App's fields", async () => {
    await page.locator("label", { hasText: "GitHub App" }).click();
    expect(await form().getByLabel("GitHub API URL").inputValue()).toBe("https://api.github.com");
    await form().getByLabel("App ID").fill("not-a-number");
    await form().getByLabel("Private key").fill("not a key");
    await form().getByLabel("Webhook secret").fill(SECRET);
    await form().getByRole("button", { name: "Connect" }).click();
    await poll(async () => (await fieldError("App ID"))?.includes("numeric id") ?? false, true);
    await form().getByLabel("App ID").fill("123456");
    await form().getByRole("button", { name: "Connect" }).click();
    await poll(async () => (await fieldError("Private key"))?.includes("PEM") ?? false, true);
    expect(await listed()).toHaveLength(1);
  });

  it("creates a GitHub App in one click: the manifest posted to GitHub, GitHub's code back to the dashboard, once", async () => {
    const oneClick = page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Create GitHub App", exact: true }) });
    await oneClick.getByLabel("GitHub API URL").fill(front.url);
    // GitHub's new-App page (its UI cannot run here): it takes the posted manifest and, once the
    // person confirms, sends them to the manifest's redirect URL with a code and the state.
    let posted: { state: string; manifest: Record<string, any> } | undefined;
    await page.route(`${front.url}/settings/apps/new**`, async (route) => {
      const request = route.request();
      const state = new URL(request.url()).searchParams.get("state")!;
      const manifest = JSON.parse(new URLSearchParams(request.postData() ?? "").get("manifest")!);
      posted = { state, manifest };
      const back = `${manifest.redirect_url}?code=a1b2c3d4&state=${encodeURIComponent(state)}`;
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><title>GitHub</title><a href="${back}">Create GitHub App for ${manifest.name}</a></html>`,
      });
    });
    await oneClick.getByRole("button", { name: "Create GitHub App", exact: true }).click();
    await page.getByRole("link", { name: /^Create GitHub App for Verdict/ }).click();
    await page.getByTestId("github-app-connected").waitFor();
    expect(posted!.manifest).toMatchObject({
      url: base,
      redirect_url: `${base}/connections/github/callback`,
      default_events: ["pull_request", "push", "check_run", "check_suite", "repository"],
    });
    // GitHub's example App (1) became the connection the manifest's webhook names.
    const app = (await listed()).find((c) => c.provider === "github");
    expect(app).toMatchObject({ app_id: "1", base_url: front.url, status: "active" });
    expect(pathOf(posted!.manifest.hook_attributes.url)).toBe(pathOf(app.events_url));
    expect(front.exchanges.filter((e) => e.path === "/app-manifests/a1b2c3d4/conversions")).toHaveLength(1);
    expect(front.rejected()).toEqual([]);
    expect(await axe(page)).toEqual([]);
    // The same code and state again (a reload): used up, said so, nothing converted twice.
    await page.reload();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("MANIFEST_STATE_INVALID");
    expect(front.exchanges.filter((e) => e.path === "/app-manifests/a1b2c3d4/conversions")).toHaveLength(1);
    await page.getByRole("link", { name: "Back to Connections" }).click();
    await page.locator(`[data-id="${app.id}"]`).waitFor();
    expect((await api.delete(`/v1/integrations/connections/${app.id}`)).status).toBe(204);
  });

  it("lists connections as cards at phone width and deletes one after a confirmation", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem("verdict-color-scheme", "dark"));
    await page.reload();
    const card = page.locator('li[data-testid="connection"]');
    await card.waitFor();
    expect(await card.getByTestId("connection-status").textContent()).toBe("healthy");
    expect(await axe(page)).toEqual([]);
    expect(await layoutProblems(page)).toEqual({});
    // Cancel keeps it.
    const remove = card.getByRole("button", { name: `Delete the connection to ${gitea.url}` });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: `Delete the connection to ${gitea.url}?` });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await listed()).toHaveLength(1);
    await remove.click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByTestId("empty").waitFor();
    expect(await listed()).toEqual([]);
  });

  it("is read-only for a viewer", async () => {
    const made = await api.post("/v1/integrations/connections", {
      provider: "gitea",
      base_url: gitea.url,
      token,
      webhook_secret: SECRET,
    });
    expect(made.status).toBe(201);
    const viewer = await context.browser()!.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await viewer.newPage();
    await signIn(p, base, VIEWER, PASSWORD);
    await p.getByRole("link", { name: "Connections" }).click();
    await p.getByTestId("connection").waitFor();
    expect(await p.getByTestId("read-only").isVisible()).toBe(true);
    expect(await p.locator("form").count()).toBe(0);
    expect(await p.getByRole("button", { name: /Delete/ }).count()).toBe(0);
    expect(await p.getByTestId("connection").textContent()).toContain(`${base}${pathOf(made.body.events_url)}`);
    await viewer.close();
  });
});
