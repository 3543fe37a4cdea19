// The web dashboard in a real browser: Debian's Chromium driven by playwright-core against a
// running all-in-one (the gateway serves the built services/portal at /). Every flow goes through
// the pages as a person would (sign-in with TOTP and with a passkey on the DevTools virtual
// authenticator, a key created in the UI and used with curl, the OSCAL ZIP export checked
// document by document); axe-core runs on every page (0 serious or critical violations) and
// every page is photographed at 1280×800 and 390×844 into test/portal/screenshots (gitignored).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import JSZip from "jszip";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Api } from "../support/api.js";
import { axe, chooseOption, launchChromium, layoutProblems, poll, signIn } from "../support/browser.js";
import { OSCAL_SCHEMAS } from "../support/oscal.js";
import { addMember, totpCode } from "../support/people.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const PASSWORD = "correct horse battery staple";
const EMAIL = "olive@example.test";
const SHOTS = join(ROOT, "test/portal/screenshots");

let v: Verdict;
let api: Api;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let hooks: Server;
let hookUrl: string;
const received: string[] = [];
let totpSecret = "";

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  v = await startVerdict({ env: { VERDICT_WEBHOOK_ALLOW_HTTP: "true", VERDICT_WEBHOOK_ALLOW_PRIVATE: "true" } });
  // localhost (not 127.0.0.1): a secure context for WebAuthn, and the session cookie's host.
  base = `http://localhost:${v.port}`;
  api = new Api(v.url, v.bootstrapKey);
  await addMember(api, EMAIL, "owner", PASSWORD);
  // Evaluations to look at: one passing, one with a leaked AWS key.
  for (const [repo, content] of [
    ["acme/payments", 'const region = "eu-west-1";\n'],
    ["acme/payments", 'const key = "AKIAZ7VQ3X4M2N8P5R6T";\n'],
    ["acme/web", "export const ok = true;\n"],
  ] as const) {
    const r = await api.post("/v1/evaluations", {
      repository: repo,
      ref: "main",
      files: [{ path: "src/a.ts", content }],
    });
    expect(r.status).toBe(201);
  }
  hooks = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hook`;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (hooks ? hooks.close(r) : r(undefined)));
  await v?.destroy();
});

async function signInWithPassword(): Promise<void> {
  await signIn(page, base, EMAIL, PASSWORD);
}

async function signOut(): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in to Verdict" }).waitFor();
}

describe("the dashboard", () => {
  it("is served at / with a strict CSP, cache-busted assets, deep links, and the API's 404s kept", async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    const csp = index.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("upgrade-insecure-requests");
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const asset = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
    const js = await fetch(`${base}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const deep = await fetch(`${base}/evaluations/eval_123`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    // The API's own answers, never the dashboard's page (SCIM asks for its bearer token first).
    for (const [path, status, type] of [
      ["/v1/nothing", 404, "application/json"],
      ["/auth/nothing", 404, "application/json"],
      ["/scim/v2/Nothing", 401, "application/scim+json"],
    ] as const) {
      const r = await fetch(`${base}${path}`, { headers: { accept: "text/html" } });
      expect({ path, status: r.status, type: r.headers.get("content-type") }).toEqual({
        path,
        status,
        type: expect.stringContaining(type),
      });
    }
    expect((await fetch(`${base}/assets/missing-abc.js`)).status).toBe(404);
  });

  it("signs in with a password, and shows a wrong password on the form", async () => {
    await page.goto(`${base}/`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("AUTH_INVALID_CREDENTIALS");
    await page.screenshot({ path: join(SHOTS, "sign-in-1280.png") });
    expect(await axe(page)).toEqual([]);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(await page.getByTestId("org-name").textContent()).toBeTruthy();
  });

  it("enrols an authenticator app on the Security page, then signs in with a TOTP code", async () => {
    await page.getByRole("link", { name: "Security" }).click();
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    totpSecret = (await page.getByTestId("totp-secret").textContent())!.trim();
    expect(totpSecret).toMatch(/^[A-Z2-7]+=*$/);
    await page.getByLabel("First code from the app").fill("000000" === totpCode(totpSecret) ? "111111" : "000000");
    await page.getByRole("button", { name: "Confirm" }).click();
    // A wrong code is shown on the field.
    await poll(() => page.getByLabel("First code from the app").getAttribute("aria-invalid"), "true");
    await page.getByLabel("First code from the app").fill(totpCode(totpSecret));
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByTestId("recovery-codes").waitFor();
    expect(await page.getByTestId("mfa-state").textContent()).toBe("on");
    await signOut();
    await signInWithPassword();
    await page.getByLabel("Authentication code").fill(totpCode(totpSecret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  });

  it("adds a passkey (virtual authenticator) and signs in with it", async () => {
    await page.goto(`${base}/settings/security`);
    await page.getByLabel("Name").fill("laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Passkey added.").waitFor();
    await signOut();
    await signInWithPassword();
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  });

  it("lists the person's passkeys on the Security page, renames one and deletes it after a confirmation", async () => {
    await page.goto(`${base}/settings/security`);
    const laptop = page.getByTestId("passkey-laptop");
    await laptop.waitFor();
    // Just signed in with it: last used is a date, not "Never".
    expect(await laptop.getByRole("cell").nth(2).textContent()).not.toBe("Never");
    expect(await laptop.textContent()).toContain("This device only");
    await laptop.getByRole("button", { name: "Rename" }).click();
    await laptop.getByLabel("New name").fill("");
    await laptop.getByRole("button", { name: "Save" }).click();
    // The API's field error lands on the field.
    await poll(() => laptop.getByLabel("New name").getAttribute("aria-invalid"), "true");
    await laptop.getByLabel("New name").fill("work laptop");
    await laptop.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("passkey-work laptop").waitFor();

    // The person also has TOTP, so the passkey may go (the organization does not require MFA).
    const renamed = page.getByTestId("passkey-work laptop");
    await renamed.getByRole("button", { name: "Delete" }).click();
    // Nothing is deleted before the confirmation; "Keep" backs out.
    await renamed.getByRole("button", { name: "Keep" }).click();
    expect((await api.get("/v1/audit-events", { query: { type: "mfa.passkey_deleted" } })).body.audit_events).toEqual(
      [],
    );
    await renamed.getByRole("button", { name: "Delete" }).click();
    await renamed.getByRole("button", { name: "Delete work laptop" }).click();
    await page.getByText("No passkeys yet").waitFor();
    const events = await api.get("/v1/audit-events", { query: { type: "mfa.passkey_deleted" } });
    expect(events.body.audit_events.map((e: { data: { name: string } }) => e.data.name)).toEqual(["work laptop"]);
  });

  it("draws the overview from the organization's figures over 30 days (GET /v1/evaluations/stats)", async () => {
    await page.goto(`${base}/`);
    await page.getByTestId("stat-Evaluations").waitFor();
    const stats = (await api.get("/v1/evaluations/stats")).body;
    expect(stats.totals.evaluations).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId("stat-Evaluations").textContent()).toBe(String(stats.totals.evaluations));
    expect(await page.getByTestId("stat-Failed").textContent()).toBe(String(stats.totals.failed));
    expect(await page.getByTestId("stat-Violations").textContent()).toBe(String(stats.totals.violations));
    await page.getByRole("link", { name: "acme/payments" }).waitFor();
    // One more evaluation shows after a reload: the figures are not a cached page of evaluations.
    const added = await api.post("/v1/evaluations", {
      repository: "acme/billing",
      ref: "main",
      files: [{ path: "src/b.ts", content: "export const b = 1;\n" }],
    });
    expect(added.status).toBe(201);
    await page.reload();
    await poll(() => page.getByTestId("stat-Evaluations").textContent(), String(stats.totals.evaluations + 1));
    await page.getByRole("link", { name: "acme/billing" }).waitFor();
  });

  it("creates an API key in the UI (shown once) that works with curl", async () => {
    await page.goto(`${base}/settings/api-keys`);
    await page.getByRole("button", { name: "Create key" }).click();
    // The API's field error lands on the field: a name is required.
    await page.getByText(/name .*(required|at least)/i).waitFor();
    await page.getByLabel("Name").fill("ci reader");
    await chooseOption(page, "Expires after", "7 days");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(key).toMatch(/^vdt_key_(prod|test)_[0-9A-Za-z]{38}$/);
    const out = execFileSync("curl", ["-s", "-H", `Authorization: Bearer ${key}`, `${v.url}/v1/evaluations?limit=1`], {
      encoding: "utf8",
    });
    expect(JSON.parse(out).evaluations).toHaveLength(1);
    const denied = execFileSync(
      "curl",
      ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", `Authorization: Bearer ${key}`, `${v.url}/v1/policies`],
      { encoding: "utf8" },
    );
    expect(denied).toBe("403");
    await page.reload();
    expect(await page.getByTestId("secret-value").count()).toBe(0);
    await page.getByRole("cell", { name: "ci reader", exact: true }).waitFor();
  });

  it("is operable by keyboard: skip link, every control in turn, a confirm dialog opened with Enter and closed with Escape", async () => {
    await page.goto(`${base}/settings/api-keys`);
    await page.getByRole("cell", { name: "ci reader", exact: true }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return { label: "", tag: "body", outline: "none" };
        const label =
          el.getAttribute("aria-label") ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? "";
        const style = getComputedStyle(el);
        return { label: label.trim(), tag: el.tagName.toLowerCase(), outline: style.outlineStyle };
      });
    // The first stop skips the navigation: the next is the page's first field.
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ label: "Skip to content", tag: "a" });
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ label: "Name", tag: "input" });
    // From the top, Tab visits the header, the navigation and every control of the page in order.
    await page.goto(`${base}/settings/api-keys`);
    await page.getByRole("cell", { name: "ci reader", exact: true }).waitFor();
    const seen: { label: string; tag: string; outline: string }[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      const f = await focused();
      seen.push(f);
      if (f.label === "Revoke ci reader") break;
    }
    const labels = seen.map((f) => f.label);
    for (const want of ["Sign out", "Overview", "Webhooks", "Audit log", "Name", "IP allowlist", "admin", "Create key"])
      expect({ want, reached: labels.includes(want) }).toEqual({ want, reached: true });
    expect(labels.indexOf("Audit log")).toBeLessThan(labels.indexOf("Name"));
    expect(labels.indexOf("Create key")).toBeLessThan(labels.indexOf("Revoke ci reader"));
    // Every button and link shows a focus ring when focused from the keyboard.
    const ringless = seen.filter((f) => (f.tag === "button" || f.tag === "a") && f.outline === "none");
    expect(ringless).toEqual([]);
    // Enter on "Revoke" asks first; Escape keeps the key and puts focus back on the button.
    expect((await focused()).label).toBe("Revoke ci reader");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: 'Revoke the key "ci reader"?' });
    await dialog.waitFor();
    await poll(async () => (await focused()).label, "Cancel");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await poll(async () => (await focused()).label, "Revoke ci reader");
    const key = async () => (await api.get("/v1/api-keys")).body.api_keys.find((k: any) => k.name === "ci reader");
    expect((await key()).status).toBe("active");
    // Enter again, Tab to the dialog's "Revoke", Enter: the key is revoked.
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await poll(async () => (await focused()).label, "Cancel");
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ label: "Revoke", tag: "button" });
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    await poll(async () => (await key()).status, "revoked");
    await page.getByRole("button", { name: "Revoke ci reader" }).waitFor({ state: "detached" });
    // A link of the navigation opens its page with Enter.
    await page.getByRole("link", { name: "Webhooks" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    // At phone size, a policy's settings open in a drawer that fits the window; Escape closes it
    // and focus returns to the button that opened it.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // A confirm dialog fits the phone's window too (Escape leaves the key as it was).
      await page.goto(`${base}/settings/api-keys`);
      await page
        .getByRole("button", { name: /^Revoke / })
        .first()
        .click();
      const confirm = page.getByRole("dialog");
      await confirm.getByRole("button", { name: "Cancel" }).waitFor();
      await poll(async () => {
        const box = (await confirm.boundingBox())!;
        return box.x >= 0 && box.x + box.width <= 390;
      }, true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "hidden" });
      await page.goto(`${base}/policies`);
      const settings = page.getByRole("button", { name: /^Settings of / }).first();
      const trigger = (await settings.getAttribute("aria-label"))!;
      await settings.focus();
      await page.keyboard.press("Enter");
      const drawer = page.getByRole("dialog");
      await drawer.getByRole("button", { name: "Save settings" }).waitFor();
      // Once it has slid in, the drawer lies within the window.
      await poll(async () => {
        const box = (await drawer.boundingBox())!;
        return `${Math.round(box.x)}..${Math.round(box.x + box.width)}`;
      }, "0..390");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      await poll(async () => (await focused()).label, trigger);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("shows evaluations with filters and a violation with snippet, suggestion and suppression comment", async () => {
    await page.goto(`${base}/evaluations?passed=false`);
    const link = page.getByRole("link", { name: /^eval_/ });
    await link.first().waitFor();
    expect(await link.count()).toBe(1);
    await link.first().click();
    const violation = page.getByTestId("violation").first();
    await violation.waitFor();
    const text = (await violation.textContent())!;
    expect(text).toContain("AKIA");
    expect(text).not.toContain("AKIAZ7VQ3X4M2N8P5R6T");
    expect(text).toContain("verdict-ignore");
    expect(text).toContain("Suggestion");
  });

  it("follows a violation's policy link to that policy, focused on the Policies page", async () => {
    const failed = (await api.get("/v1/evaluations", { query: { passed: false } })).body.evaluations[0];
    const violation = (await api.get(`/v1/evaluations/${failed.id}`)).body.violations[0];
    await page.goto(`${base}/evaluations/${failed.id}`);
    await page.getByTestId("violation").first().getByRole("link", { name: violation.policy_id }).click();
    await page.waitForURL(`**/policies?focus=${violation.policy_id}`);
    const row = page.getByTestId(`policy-${violation.policy_id}`);
    await poll(() => row.getAttribute("aria-current"), "true");
    // The keyboard starts from the focused policy, which is in view.
    await poll(
      () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? ""),
      `policy-${violation.policy_id}`,
    );
    expect(await row.isVisible()).toBe(true);
    const box = (await row.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(await page.locator("[aria-current=true]").count()).toBe(1);
    // An id the organization has no policy for is said so.
    await page.goto(`${base}/policies?focus=no-such-policy`);
    await page.getByText("No policy no-such-policy in this organization.").waitFor();
  });

  it("at phone width, the evaluation page does not scroll sideways (its id in the heading breaks)", async () => {
    const failed = (await api.get("/v1/evaluations", { query: { passed: false } })).body.evaluations[0];
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${base}/evaluations/${failed.id}`);
      await page.getByTestId("violation").first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const heading = (await page.locator("main h1").boundingBox())!;
      expect(heading.x + heading.width).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("toggles a policy, tests a custom pattern, and shows the API's field errors", async () => {
    await page.goto(`${base}/policies`);
    const list = await api.get("/v1/policies");
    const first = list.body.policies[0];
    const toggle = page.getByRole("switch", { name: `Enable ${first.name}` });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(first.enabled);
    await toggle.click({ force: true });
    await poll(async () => (await api.get(`/v1/policies/${first.id}`)).body.enabled, !first.enabled);
    await page.getByLabel("Pattern (RE2)").fill("TODO\\(\\w+\\)");
    await page.getByLabel("Test against sample text").fill("ok\n// TODO(ann) fix\nfine");
    // The server runs the pattern with RE2 and the engine's flags: line and column (code points).
    await poll(() => page.getByTestId("pattern-result").textContent(), "Matches line 2 at 2:4");
    // The browser's RegExp accepts lookbehind; RE2 (and so the engine) refuses it: the error is
    // the API's, on the pattern field, as creating the policy would show it.
    await page.getByLabel("Pattern (RE2)").fill("(?<=// )TODO");
    await poll(() => page.getByLabel("Pattern (RE2)").getAttribute("aria-invalid"), "true");
    await page.getByText(/Not a valid RE2 pattern/).waitFor();
    // \pL is any letter in RE2 (a RegExp without the u flag reads it as "pL").
    await page.getByLabel("Pattern (RE2)").fill("\\pLrger");
    await page.getByLabel("Test against sample text").fill("1 Ärger 2");
    await poll(() => page.getByTestId("pattern-result").textContent(), "Matches line 1 at 1:3");
    await page.getByLabel("Pattern (RE2)").fill("TODO\\(\\w+\\)");
    await page.getByLabel("Id", { exact: true }).fill("Bad Id");
    await page.getByLabel("Name", { exact: true }).fill("No TODOs");
    await page.getByRole("button", { name: "Create policy" }).click();
    await page.getByText("id must be a slug").waitFor();
    await page.getByLabel("Id", { exact: true }).fill("no-todo");
    await page.getByRole("button", { name: "Create policy" }).click();
    await page.getByTestId("policy-no-todo").waitFor();
  });

  it("tests and creates a syntax-aware (structural) custom policy", async () => {
    await page.goto(`${base}/policies`);
    await chooseOption(page, "Pattern type", "Syntax-aware rule (ast-grep)");
    const rule = page.getByLabel("Rule (ast-grep, JSON)");
    await rule.fill('{"pattern": "eval($X)"}');
    // eval in a comment or a string is no call: only line 3 matches, at its column.
    await page.getByLabel("Test against sample text").fill('# eval(x)\ns = "eval(x)"\ny = eval(data)\n');
    await poll(() => page.getByTestId("pattern-result").textContent(), "Matches line 3 at 3:5");
    // ast-grep's code-rewriting keys are refused by the server, on the key's field.
    await rule.fill('{"pattern": "eval($X)", "fix": "safe($X)"}');
    await page.getByText(/rule\.fix: .*not a rule key/).waitFor();
    await rule.fill('{"pattern": "eval($X)"}');
    await page.getByLabel("Id", { exact: true }).fill("no-eval");
    await page.getByLabel("Name", { exact: true }).fill("No eval");
    await page.getByRole("button", { name: "Create policy" }).click();
    await page.getByTestId("policy-no-eval").waitFor();
    const created = await api.get("/v1/policies/no-eval");
    expect(created.body.patterns[0]).toMatchObject({ type: "structural" });
    expect(JSON.parse(created.body.patterns[0].value)).toEqual({
      languages: ["python"],
      rule: { pattern: "eval($X)" },
    });
  });

  it("exports the OSCAL ZIP of the selected frameworks and regulations over a chosen date range; its documents are valid OSCAL 1.1.2", async () => {
    await page.goto(`${base}/compliance`);
    await page.getByRole("checkbox", { name: /^OWASP Application Security Verification/ }).check();
    await page.getByRole("checkbox", { name: /Secure Software Development/ }).check();
    await page.getByRole("checkbox", { name: /^HIPAA Security Rule/ }).check();
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    // An end before the start: the API's error shows on the date it names.
    await page.getByLabel("From", { exact: true }).fill(day(3));
    await page.getByLabel("To", { exact: true }).fill(day(5));
    await page.getByRole("button", { name: /^Export 3 selected/ }).click();
    await poll(() => page.getByLabel("To", { exact: true }).getAttribute("aria-invalid"), "true");
    await page.getByText("Must not be before date_range.start").waitFor();
    await page.getByLabel("From", { exact: true }).fill(day(10));
    await page.getByLabel("To", { exact: true }).fill(day(0));
    const download = page.waitForEvent("download", { timeout: 60_000 });
    await page.getByRole("button", { name: /^Export 3 selected/ }).click();
    const file = await download;
    const path = join(SHOTS, "..", "oscal-export.zip");
    await file.saveAs(path);
    await page.getByTestId("zip-documents").waitFor();
    const zip = await JSZip.loadAsync(readFileSync(path));
    const ajv = new Ajv({ allErrors: true, strict: false });
    (addFormatsModule as unknown as (x: Ajv) => void)(ajv);
    const validate = {
      catalog: ajv.compile(JSON.parse(readFileSync(`${OSCAL_SCHEMAS}/oscal-catalog_schema.json`, "utf8"))),
      "assessment-results": ajv.compile(JSON.parse(readFileSync(`${OSCAL_SCHEMAS}/oscal-ar_schema.json`, "utf8"))),
      poam: ajv.compile(JSON.parse(readFileSync(`${OSCAL_SCHEMAS}/oscal-poam_schema.json`, "utf8"))),
    };
    for (const fw of ["owasp-asvs", "nist-ssdf", "hipaa"]) {
      for (const kind of ["catalog", "assessment-results", "poam"] as const) {
        const entry = zip.file(`${fw}/${fw}-${kind}.json`);
        expect({ fw, kind, present: entry !== null }).toEqual({ fw, kind, present: true });
        const doc = JSON.parse(await entry!.async("string"));
        const ok = validate[kind](doc);
        expect({ fw, kind, errors: ok ? null : validate[kind].errors }).toEqual({ fw, kind, errors: null });
        // The range chosen on the page, not the last 90 days.
        if (kind === "assessment-results")
          expect(doc["assessment-results"].results[0].start).toBe(`${day(10)}T00:00:00.000Z`);
      }
    }
    const listed = await page.getByTestId("zip-documents").textContent();
    expect(listed).toContain("owasp-asvs/owasp-asvs-poam.json");
  });

  it("generates the PDF report of the selected frameworks with progress, and downloads it", async () => {
    // The frameworks and the regulation of the OSCAL export are still selected.
    await page.getByText("PDF report", { exact: true }).click();
    const download = page.waitForEvent("download", { timeout: 60_000 });
    await page.getByRole("button", { name: /^Export 3 selected/ }).click();
    await page.getByText(/\(pdf, owasp-asvs, nist-ssdf, hipaa\)/).waitFor();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^verdict-.+\.pdf$/);
    const path = join(SHOTS, "report.pdf");
    await file.saveAs(path);
    expect(readFileSync(path).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(await page.getByTestId("report-status").textContent()).toBe("completed");
  });

  it("shows the report's SHA-256 and the report signing key, the one the well-known JWK names", async () => {
    const jwk = (await (await fetch(`${base}/.well-known/verdict-report-key.jwk`)).json()) as { kid: string };
    expect(await page.getByTestId("report-key-id").textContent()).toBe(jwk.kid);
    expect(await page.getByTestId("report-sha256").textContent()).toMatch(
      new RegExp(`^SHA-256 [0-9a-f]{64}, signed by key ${jwk.kid}$`),
    );
    expect(await page.getByRole("link", { name: "Public key (PEM)" }).getAttribute("href")).toBe(
      "/.well-known/verdict-report-key.pem",
    );
  });

  it("creates a webhook (secret shown once), sends a test and shows the delivery", async () => {
    await page.goto(`${base}/webhooks`);
    await page.getByLabel("URL").fill("not a url");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText(/url must be/i).waitFor();
    await page.getByLabel("URL").fill(hookUrl);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect((await page.getByTestId("secret-value").textContent())!.trim()).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Send test" }).click();
    await poll(() => received.length > 0, true);
    await page.getByRole("button", { name: "Deliveries" }).click();
    await page.getByTestId("delivery").first().waitFor();
    // Redeliver sends the same message again: a second request arrives, a second attempt is logged.
    const before = received.length;
    await page.getByRole("button", { name: "Redeliver" }).first().click();
    await poll(() => received.length > before, true);
    expect(received[received.length - 1]).toBe(received[before - 1]);
    await poll(async () => {
      await page.getByRole("button", { name: "Hide deliveries" }).click();
      await page.getByRole("button", { name: "Deliveries" }).click();
      return (await page.getByTestId("delivery").first().locator("td").nth(2).textContent())?.trim();
    }, "2");
    await page.getByRole("switch", { name: "Enabled" }).click({ force: true });
    await page.getByText("Disabled").first().waitFor();
    expect((await api.get("/v1/webhooks")).body.webhooks[0].status).toBe("disabled");
    // A disabled endpoint refuses a redelivery: the API's error is shown, nothing is sent.
    const sent = received.length;
    await page.getByRole("button", { name: "Redeliver" }).first().click();
    await page
      .getByRole("alert")
      .filter({ hasText: /disabled/i })
      .waitFor();
    expect(received.length).toBe(sent);
    await page.getByRole("switch", { name: "Disabled" }).click({ force: true });
    await page.getByRole("switch", { name: "Enabled" }).waitFor();
    expect((await api.get("/v1/webhooks")).body.webhooks[0].status).toBe("active");
  });

  it("registers an OAuth client (secret shown once) and deletes it", async () => {
    await page.goto(`${base}/settings/oauth-clients`);
    await page.getByText("No OAuth clients yet.").waitFor();
    await page.getByLabel("Name").fill("Grafana");
    await page.getByLabel("Redirect URIs (one a line)").fill("not a uri");
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByText(/^redirect_uris\[0\]: /).waitFor();
    await page.getByLabel("Redirect URIs (one a line)").fill("https://grafana.example.test/login/generic_oauth");
    await page.getByRole("button", { name: "Register" }).click();
    const secret = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(secret).toMatch(/^vdt_ocs_[0-9A-Za-z]{38}$/);
    await page.getByRole("cell", { name: "Grafana", exact: true }).waitFor();
    const listed = (await api.get("/v1/oauth-clients")).body.oauth_clients;
    expect(listed.map((c: any) => c.name)).toEqual(["Grafana"]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    await page.reload();
    await page.getByRole("cell", { name: "Grafana", exact: true }).waitFor();
    expect(await page.getByTestId("secret-value").count()).toBe(0);
    await page.getByRole("button", { name: "Delete" }).click();
    // Deleting asks first: the dialog names the application.
    const confirm = page.getByRole("dialog", { name: 'Delete the application "Grafana"?' });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No OAuth clients yet.").waitFor();
    expect((await api.get("/v1/oauth-clients")).body.oauth_clients).toEqual([]);
  });

  it("shows a validation error on the organization's field, then saves the settings", async () => {
    await page.goto(`${base}/settings/organization`);
    const name = page.getByLabel("Name");
    await name.fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => name.getAttribute("aria-invalid"), "true");
    expect((await api.get("/v1/organization")).body.name).not.toBe("");
    await name.fill("Acme Security");
    await page.getByRole("switch", { name: "Require a passing evaluation" }).click({ force: true });
    await page.getByLabel("System description").fill("Acme Pay: the card payments API");
    const required = (await api.get("/v1/organization")).body.settings.require_evaluation_pass;
    // The audit log's retention: under 90 days is the API's error on the field, and nothing is saved.
    const retention = page.getByLabel("Keep audit events for (days)");
    expect(await retention.inputValue()).toBe("");
    await retention.fill("30");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => retention.getAttribute("aria-invalid"), "true");
    expect((await api.get("/v1/organization")).body.settings.audit_retention_days).toBeNull();
    await retention.fill("365");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved", { exact: true }).waitFor();
    expect(await retention.getAttribute("aria-invalid")).not.toBe("true");
    expect(await name.getAttribute("aria-invalid")).not.toBe("true");
    const org = (await api.get("/v1/organization")).body;
    expect(org.name).toBe("Acme Security");
    expect(org.settings.require_evaluation_pass).toBe(!required);
    // The PDF's scope page reads it.
    expect(org.settings.system_description).toBe("Acme Pay: the card payments API");
    expect(org.settings.audit_retention_days).toBe(365);
    await page.reload();
    await expect(page.getByLabel("Name").inputValue()).resolves.toBe("Acme Security");
    await expect(page.getByLabel("Keep audit events for (days)").inputValue()).resolves.toBe("365");
  });

  it("connects a repository (the API's field error first) and lists it", async () => {
    await page.goto(`${base}/repositories`);
    await page.getByLabel("Name").fill("not a repository name!");
    await page.getByRole("button", { name: "Connect" }).click();
    await poll(() => page.getByLabel("Name").getAttribute("aria-invalid"), "true");
    await page.getByLabel("Name").fill("acme/ledger");
    await page.getByLabel("Default branch").fill("trunk");
    await page.getByRole("button", { name: "Connect" }).click();
    const row = page.getByRole("row", { name: /acme\/ledger/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("trunk");
    const repos = (await api.get("/v1/repositories")).body.repositories;
    expect(repos.find((r: any) => r.name === "acme/ledger")).toMatchObject({
      provider: "github",
      default_branch: "trunk",
    });
    await row.getByRole("link", { name: "acme/ledger" }).click();
    await page.waitForURL(/\/evaluations\?repository=acme%2Fledger/);
  });

  it("creates a SCIM token on the Security page (shown once, with a copy button), lists and deletes it", async () => {
    await page.goto(`${base}/settings/security`);
    await page.getByText("No SCIM tokens yet.").waitFor();
    await page.getByRole("button", { name: "Create SCIM token" }).click();
    // The API's field error lands on the field: a name is required.
    await poll(() => page.getByLabel("Identity provider").getAttribute("aria-invalid"), "true");
    await page.getByLabel("Identity provider").fill("Okta");
    await page.getByRole("button", { name: "Create SCIM token" }).click();
    const token = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(token).toMatch(/^vdt_scim_/);
    await page.getByTestId("shown-once").getByRole("button", { name: "Copy" }).waitFor();
    const row = page.getByTestId("scim-token");
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain("Okta");
    expect(await row.first().textContent()).not.toContain(token);
    // The token provisions with the identity provider's bearer token, as SCIM clients do.
    const users = await fetch(`${v.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "security-scim-1280.png"), fullPage: true });
    await page.reload();
    await row.first().waitFor();
    expect(await page.getByTestId("secret-value").count()).toBe(0);
    await page.getByRole("button", { name: "Delete SCIM token Okta" }).click();
    await page
      .getByRole("dialog", { name: 'Delete the SCIM token "Okta"?' })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByText("No SCIM tokens yet.").waitFor();
    expect((await api.get("/v1/scim-tokens")).body.scim_tokens).toEqual([]);
    const after = await fetch(`${v.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it("saves an OIDC SSO connection on the Security page: the API's field errors, then domains with their tokens", async () => {
    await page.goto(`${base}/settings/security`);
    await page.getByRole("button", { name: "Save connection" }).waitFor();
    // Saving an OIDC connection does not contact the issuer (discovery happens at sign-in).
    await page.getByLabel("Issuer").fill("not a url");
    await page.getByLabel("Client id").fill("verdict");
    await page.getByLabel("Client secret").fill("oidc-client-secret-value");
    await page.getByLabel("Email domains (one a line)").fill("acme-sso.test");
    await page.getByRole("button", { name: "Save connection" }).click();
    await poll(() => page.getByLabel("Issuer").getAttribute("aria-invalid"), "true");
    await page.getByLabel("Issuer").fill("https://idp.acme-sso.test/realms/acme");
    await chooseOption(page, "Role of people who join through SSO", "viewer");
    await page.getByRole("button", { name: "Save connection" }).click();
    await page.getByText("Connection saved.").waitFor();
    const domain = page.getByTestId("sso-domain");
    await domain.first().waitFor();
    const sso = (await api.get("/v1/organization/sso")).body;
    expect(sso).toMatchObject({ type: "oidc", client_secret_set: true, default_role: "viewer", enforce: false });
    const text = (await domain.first().textContent())!;
    expect(text).toContain("acme-sso.test");
    expect(text).toContain("waiting for verification");
    expect(text).toContain(`verdict-domain-verification=${sso.domains[0].verification_token}`);
    expect(await page.content()).not.toContain("oidc-client-secret-value");
    expect(await page.getByLabel("Client secret").inputValue()).toBe("");
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "security-sso-1280.png"), fullPage: true });
    // The operator verifies the domain: the page shows it.
    const org = (await api.get("/v1/organization")).body;
    expect((await api.post(`/v1/organizations/${org.id}/sso/domains/acme-sso.test/verify`)).status).toBe(200);
    await page.reload();
    await page.getByTestId("sso-domain").getByText("verified", { exact: true }).waitFor();
  });

  it("explains SCIM instead of offering tokens on a plan without it", async () => {
    const created = await api.post("/v1/organizations", { name: "Small Shop", plan: "free" });
    expect(created.status).toBe(201);
    await addMember(api.withKey(created.body.api_key.key), "sam@small.test", "owner", PASSWORD);
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await other.newPage();
      p.setDefaultTimeout(20_000);
      await p.goto(`${base}/settings/security`);
      await p.getByLabel("Email").fill("sam@small.test");
      await p.getByLabel("Password").fill(PASSWORD);
      await p.getByRole("button", { name: "Sign in", exact: true }).click();
      await p.getByRole("button", { name: "Sign out" }).waitFor();
      await p.goto(`${base}/settings/security`);
      const note = p.getByTestId("scim-unavailable");
      await note.waitFor();
      expect(await note.textContent()).toContain("Business and Enterprise plans");
      expect(await p.getByRole("button", { name: "Create SCIM token" }).count()).toBe(0);
      expect(await p.getByTestId("sso-unavailable").textContent()).toContain("Team, Business and Enterprise");
      expect(await axe(p)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("invites a member (link shown once) and changes a role", async () => {
    await page.goto(`${base}/settings/members`);
    await page.getByLabel("Email").fill("new@example.test");
    await page.getByRole("button", { name: "Invite" }).click();
    expect(await page.getByTestId("secret-value").textContent()).toContain("#token=vdt_inv_");
    await page.getByRole("cell", { name: "new@example.test", exact: true }).waitFor();
    await chooseOption(page, "Role of new@example.test", "viewer");
    await poll(
      async () => (await api.get("/v1/members")).body.members.find((m: any) => m.email === "new@example.test").role,
      "viewer",
    );
  });

  const PAGES: [string, string][] = [
    ["overview", "/"],
    ["evaluations", "/evaluations"],
    ["findings", "/findings"],
    ["policies", "/policies"],
    ["repositories", "/repositories"],
    ["connections", "/connections"],
    ["compliance", "/compliance"],
    ["webhooks", "/webhooks"],
    ["api-keys", "/settings/api-keys"],
    ["members", "/settings/members"],
    ["organization", "/settings/organization"],
    ["security", "/settings/security"],
    ["oauth-clients", "/settings/oauth-clients"],
    ["audit", "/settings/audit"],
    // Configuration changes with their before → after (long values: a webhook URL's SHA-256).
    ["audit-changes", "/settings/audit?type=webhook.created"],
    // An evaluation with a violation ({failed}: its id, read when the sweep runs).
    ["evaluation", "/evaluations/{failed}"],
  ];

  // One test per color scheme and size: axe takes seconds a page on a loaded machine.
  for (const [scheme, size] of [
    ["light", { width: 1280, height: 800 }],
    ["dark", { width: 390, height: 844 }],
  ] as const) {
    it(`has no serious or critical accessibility violations on any page (${scheme}, ${size.width}×${size.height}), and photographs each`, async () => {
      const found: Record<string, unknown> = {};
      await page.setViewportSize(size);
      await page.evaluate((s) => localStorage.setItem("verdict-color-scheme", s), scheme);
      const failed = (await api.get("/v1/evaluations", { query: { passed: false } })).body.evaluations[0].id;
      for (const [name, path] of PAGES) {
        await page.goto(`${base}${path.replace("{failed}", failed)}`);
        await page.locator("main h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        await page.locator("[role=status]").first().waitFor({ state: "detached" });
        await page.screenshot({ path: join(SHOTS, `${name}-${size.width}.png`), fullPage: true });
        const violations = await axe(page);
        if (violations.length) found[name] = violations;
        // Nothing wider than the window (the page never scrolls sideways), touch targets of at
        // least 24×24 px.
        for (const [what, problem] of Object.entries(await layoutProblems(page))) found[`${name}: ${what}`] = problem;
      }
      expect(found).toEqual({});
    }, 300_000);
  }

  it("shows the audit log of what happened, filtered by actor, type, target and dates, each change as before → after", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/settings/audit`);
    // Newest first, as the API answers them.
    const [newest] = (await api.get("/v1/audit-events", { query: { limit: 1 } })).body.audit_events;
    await page.locator("tbody tr").first().waitFor();
    expect(await page.locator("tbody tr td:nth-child(2)").first().textContent()).toBe(newest.type);
    // The organization's settings saved earlier: the API's before/after, field by field.
    const [saved] = (await api.get("/v1/audit-events", { query: { type: "organization.updated", limit: 1 } })).body
      .audit_events;
    const changes = saved.data.changes as Record<string, { before: unknown; after: unknown }>;
    expect(changes.name).toEqual({ before: expect.any(String), after: "Acme Security" });
    await page.getByRole("textbox", { name: "Event type" }).fill("organization.upd");
    await page.getByRole("option", { name: "organization.updated" }).click();
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((u) => u.searchParams.get("type") === "organization.updated");
    // Only that type, once the page has loaded it.
    const types = async () => [...new Set(await page.locator("tbody tr td:nth-child(2)").allTextContents())].join();
    await poll(types, "organization.updated");
    const shown = page.locator('[data-testid="audit-change"][data-field="name"]').first();
    expect(await shown.locator("del").textContent()).toBe(String(changes.name!.before));
    expect(await shown.locator("ins").textContent()).toBe("Acme Security");
    // Seen as "before → after", read aloud as "from before to after".
    expect(await shown.textContent()).toBe(`name: from ${String(changes.name!.before)} → to Acme Security`);
    // The same event's other fields, a boolean among them.
    const required = changes["settings.require_evaluation_pass"]!;
    const switched = page
      .locator('[data-testid="audit-change"][data-field="settings.require_evaluation_pass"]')
      .first();
    expect([await switched.locator("del").textContent(), await switched.locator("ins").textContent()]).toEqual([
      String(required.before),
      String(required.after),
    ]);
    expect(await page.getByText('{"changes"').count()).toBe(0);
    // By actor: another member's id matches none of these; the URL keeps every filter (a deep link).
    await page.getByLabel("Actor id").fill("user_nobody");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("empty").waitFor();
    await page.getByLabel("Actor id").fill(saved.actor.id);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("audit-change").first().waitFor();
    const url = new URL(page.url());
    expect([url.searchParams.get("actor"), url.searchParams.get("type")]).toEqual([
      saved.actor.id,
      "organization.updated",
    ]);
    // By dates (UTC, both included): today has the event; a range that ends yesterday has none.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${base}/settings/audit?type=organization.updated&from=${day(0)}&to=${day(0)}`);
    await page.getByTestId("audit-change").first().waitFor();
    await page.goto(`${base}/settings/audit?type=organization.updated&from=${day(-3)}&to=${day(-1)}`);
    await page.getByTestId("empty").waitFor();
    expect(await page.getByLabel("From").inputValue()).toBe(day(-3));
    // The API's field errors on the fields they name: an actor that is no id, a day that does not exist.
    await page.getByLabel("Actor id").fill("not an id!");
    await page.getByRole("button", { name: "Filter" }).click();
    await poll(() => page.getByLabel("Actor id").getAttribute("aria-invalid"), "true");
    await page.goto(`${base}/settings/audit?to=2026-02-30`);
    await poll(() => page.getByLabel("To", { exact: true }).getAttribute("aria-invalid"), "true");
    expect(await page.getByLabel("Actor id").getAttribute("aria-invalid")).not.toBe("true");
    // By target: an event's target links to that object's history; the form takes a kind and an id.
    await page.goto(`${base}/settings/audit?type=organization.updated`);
    await page.getByTestId("audit-target").first().click();
    await page.waitForURL((u) => u.searchParams.get("target_id") === saved.target.id);
    const targets = async () => [...new Set(await page.getByTestId("audit-target").allTextContents())].join();
    await poll(targets, `organization ${saved.target.id}`);
    // The form follows the URL once the page has read it (the list may already show that target).
    await poll(() => page.getByRole("textbox", { name: "Target type" }).inputValue(), "organization");
    expect(await page.getByLabel("Target id").inputValue()).toBe(saved.target.id);
    await page.getByLabel("Target id").fill("org_nobody");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("empty").waitFor();
    await page.getByRole("textbox", { name: "Target type" }).fill("Web Hook");
    await page.getByRole("button", { name: "Filter" }).click();
    await poll(() => page.getByRole("textbox", { name: "Target type" }).getAttribute("aria-invalid"), "true");
    expect(await axe(page)).toEqual([]);
  });

  it("lists findings across evaluations by repository and state, and triages one: the API's field errors, an accepted risk, reopened", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const findings = (await api.get("/v1/findings", { query: { repository: "acme/payments", state: "open" } })).body
      .findings;
    const finding = findings.find((f: { file: string }) => f.file === "src/a.ts");
    expect(finding).toBeDefined();
    const state = async () =>
      (await api.get("/v1/findings", { query: { repository: "acme/payments" } })).body.findings.find(
        (f: { id: string }) => f.id === finding.id,
      );
    await page.goto(`${base}/findings`);
    await chooseOption(page, "State", "Open");
    await page.getByLabel("Repository").fill("acme/payments");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((u) => u.searchParams.get("repository") === "acme/payments");
    expect(new URL(page.url()).searchParams.get("state")).toBe("open");
    const where = `${finding.policy_id} in ${finding.file}:${finding.line}`;
    await page
      .getByRole("button", { name: `Triage ${where}` })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: `Triage ${where}` });
    await dialog.getByText("Accepted risk", { exact: true }).click();
    // No reason: the API's error on the reason; an expiry in the past: on the date.
    await dialog.getByRole("button", { name: "Save" }).click();
    await poll(() => dialog.getByLabel("Reason").getAttribute("aria-invalid"), "true");
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel("Reason").fill("test fixture key, revoked at AWS");
    await dialog.getByLabel("Reopens on (UTC)").fill(day(-1));
    await dialog.getByRole("button", { name: "Save" }).click();
    await poll(() => dialog.getByLabel("Reopens on (UTC)").getAttribute("aria-invalid"), "true");
    expect((await state()).state).toBe("open");
    await dialog.getByLabel("Reopens on (UTC)").fill(day(30));
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    const triaged = await state();
    expect([triaged.state, triaged.triage_reason, triaged.triage_expires_at.slice(0, 10)]).toEqual([
      "accepted_risk",
      "test fixture key, revoked at AWS",
      day(30),
    ]);
    // Gone from the open ones; listed with its reason under "Accepted risk", where it reopens.
    await page
      .getByRole("button", { name: `Triage ${where}` })
      .first()
      .waitFor({ state: "detached" });
    await page.goto(`${base}/findings?repository=acme%2Fpayments&state=accepted_risk`);
    await page.getByText("test fixture key, revoked at AWS").waitFor();
    expect(await axe(page)).toEqual([]);
    await page
      .getByRole("button", { name: `Reopen ${where}` })
      .first()
      .click();
    await poll(async () => (await state()).state, "open");
    await page.getByTestId("empty").waitFor();
    // From the evaluation page: the violation shows its finding's state and triages it the same way.
    await page.goto(`${base}/evaluations/${finding.last_evaluation_id}`);
    const card = page
      .getByTestId("violation-finding")
      .filter({ has: page.getByRole("button", { name: `Triage ${where}` }) });
    await card.getByText("Open", { exact: true }).waitFor();
    await card.getByRole("button", { name: `Triage ${where}` }).click();
    await dialog.getByLabel("Reason").fill("a documented example key");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await poll(async () => (await state()).state, "false_positive");
    const marked = page.getByTestId("violation-finding").filter({ hasText: "a documented example key" });
    await marked.getByText("False positive", { exact: true }).waitFor();
    await marked.getByRole("button", { name: `Reopen ${where}` }).click();
    await poll(async () => (await state()).state, "open");
    await card.getByText("Open", { exact: true }).waitFor();
  });

  it('sends the browser to the IdP the API answers with for "Sign in with SSO"', async () => {
    // The identity provider: a page of its own on 127.0.0.1 that records what the browser asks.
    const asked: string[] = [];
    const idp = createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>IdP</title><h1>IdP sign-in</h1>");
    });
    await new Promise<void>((r) => idp.listen(0, "127.0.0.1", r));
    try {
      const idpUrl = `http://127.0.0.1:${(idp.address() as { port: number }).port}`;
      // A SAML connection needs no call to the IdP to be saved or to start a sign-in.
      const cert = execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "/dev/null", "-subj", "/CN=idp", "-days", "2"],
        { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
      const saved = await api.request("PUT", "/v1/organization/sso", {
        body: {
          type: "saml",
          idp_entity_id: `${idpUrl}/realm`,
          idp_sso_url: `${idpUrl}/sso`,
          idp_certificate: cert,
          domains: ["portal-sso.test"],
        },
      });
      expect(saved.status).toBe(200);
      const org = (await api.get("/v1/organization")).body;
      expect((await api.post(`/v1/organizations/${org.id}/sso/domains/portal-sso.test/verify`)).status).toBe(200);
      await signOut();
      await page.getByRole("button", { name: "Sign in with SSO" }).click();
      // An email no organization signs in with SSO: the API's error on the field, no navigation.
      await page.getByLabel("Work email").fill("eve@nowhere.test");
      await page.getByRole("button", { name: "Continue with SSO" }).click();
      await poll(() => page.getByLabel("Work email").getAttribute("aria-invalid"), "true");
      expect(await page.getByText(/not verified|no verified|SSO/i).count()).toBeGreaterThan(0);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, "sign-in-sso-1280.png") });
      expect(asked.filter((u) => u.startsWith("/sso"))).toEqual([]);
      // The API answers the email's domain with a redirect to the IdP; the browser follows it.
      const answered = await fetch(`${base}/auth/saml/login?email=dana%40portal-sso.test`, { redirect: "manual" });
      expect(answered.status).toBe(302);
      const location = new URL(answered.headers.get("location")!);
      await page.getByLabel("Work email").fill("dana@portal-sso.test");
      await page.getByRole("button", { name: "Continue with SSO" }).click();
      await page.waitForURL((u) => u.origin === idpUrl);
      const landed = new URL(page.url());
      expect(`${landed.origin}${landed.pathname}`).toBe(`${location.origin}${location.pathname}`);
      expect(`${landed.origin}${landed.pathname}`).toBe(`${idpUrl}/sso`);
      const request = inflateRawSync(Buffer.from(landed.searchParams.get("SAMLRequest")!, "base64")).toString("utf8");
      expect(request).toContain("AuthnRequest");
      expect(request).toContain(`Destination="${idpUrl}/sso"`);
      await page.getByRole("heading", { name: "IdP sign-in" }).waitFor();
      expect(asked.filter((u) => u.startsWith("/sso"))).toHaveLength(1);
    } finally {
      await new Promise((r) => idp.close(r));
    }
  });
});
