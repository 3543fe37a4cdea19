// The dashboard suites' browser checks (test/portal): Debian's Chromium, axe-core's serious and
// critical violations, and a page's layout at a window size (nothing wider than the window,
// touch targets of at least 24×24 px).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect } from "@jest/globals";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./paths.js";

export const CHROMIUM = "/usr/bin/chromium";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Chromium, once the dashboard is built (the gateway serves services/portal/dist). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
  if (!existsSync(join(ROOT, "services/portal/dist/index.html")))
    throw new Error("the dashboard is not built: pnpm run build");
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/** axe-core in the page: the serious and critical violations (ids and where). */
export async function axe(p: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  // Evaluated through DevTools, not as a page script: the page's CSP (no inline script) stays on.
  if (!(await p.evaluate('typeof axe !== "undefined"'))) await p.evaluate(AXE);
  const result = (await p.evaluate(
    `axe.run(document, { resultTypes: ["violations"] }).then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5) })))`,
  )) as { id: string; impact: string; nodes: string[] }[];
  return result.filter((r) => r.impact === "serious" || r.impact === "critical");
}

/**
 * What is wrong with the page's layout at the window's size: wider than the window (the page
 * would scroll sideways; a wide table scrolls inside its own box, or becomes cards on a phone), and
 * controls smaller than 24×24 px together with their labels (WCAG 2.5.8; links inside a line of
 * text are exempt). Empty when nothing is.
 */
export async function layoutProblems(page: Page): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  if (width.scroll > width.inner) found.scrollWidth = width;
  const small = await page.evaluate(() => {
    const out: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      "button, a[href], input:not([type=hidden]), select, textarea, [role=switch], [role=tab]",
    );
    for (const el of Array.from(controls)) {
      const own = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || own.right < 0 || el.closest("[aria-hidden=true]")) continue;
      if (el.tagName === "A" && style.display === "inline") continue;
      const rects = [
        own,
        ...Array.from((el as HTMLInputElement).labels ?? []).map((l) => l.getBoundingClientRect()),
      ].filter((r) => r.width > 1 && r.height > 1);
      if (!rects.length) continue;
      const w = Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
      const h = Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
      if (w < 24 || h < 24) {
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName;
        out.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(w)}×${Math.round(h)}`);
      }
    }
    return out;
  });
  if (small.length) found["touch targets"] = small;
  return found;
}

/** Signs in on the dashboard's sign-in page with an email and password (no second factor). */
export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Waits (up to 20 s) until `read` gives `want`; the last value otherwise (the assertion shows it). */
export async function poll<T>(read: () => Promise<T> | T, want: T): Promise<void> {
  let last: T = await read();
  for (let i = 0; i < 80 && last !== want; i++) {
    await new Promise((r) => setTimeout(r, 250));
    last = await read();
  }
  expect(last).toBe(want);
}

/**
 * Picks an option of one of the dashboard's selects (a textbox that opens a list): clicks the
 * field, then the option. On a loaded machine a click can land while the page is still
 * rendering its data and the list closes again before the option shows; the field is then
 * clicked again (at most four times) rather than the test waiting 20 s for an option that will
 * not come.
 */
export async function chooseOption(page: Page, field: string, option: string): Promise<void> {
  const box = page.getByRole("textbox", { name: field });
  const item = page.getByRole("option", { name: option });
  for (let attempt = 1; ; attempt++) {
    await box.click();
    try {
      await item.waitFor({ state: "visible", timeout: 5_000 });
      await item.click();
      return;
    } catch (err) {
      if (attempt >= 4) throw err;
      await page.keyboard.press("Escape");
    }
  }
}
