// The web dashboard (services/portal): its built files under `/`. Hashed assets are cached for a
// year (a new build has new names); index.html is revalidated on every load; a deep link
// (`/evaluations/eval_…`) gets index.html so the app's router shows that page. Paths of the API,
// the sign-in endpoints, SCIM, metrics and the OAuth server never fall back: they keep their JSON
// 404. The dashboard's CSP allows scripts only from this origin (no inline script); styles may be
// inline because the component library (Mantine) sets CSS variables in a <style> element and style
// attributes. No upgrade-insecure-requests: self-hosting on plain http must work.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import express, { type Express } from "express";

export const PORTAL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Never answered with the dashboard: the API and the other machine-facing paths. */
const RESERVED = /^\/(v1|auth|scim|metrics|\.well-known|oauth|health)(\/|$)/;

/** The built dashboard: VERDICT_PORTAL_DIR, else @verdict/portal's dist/ (undefined: not built). */
export function findPortalDir(configured?: string): string | undefined {
  if (configured) return existsSync(join(configured, "index.html")) ? configured : undefined;
  try {
    const pkg = createRequire(import.meta.url).resolve("@verdict/portal/package.json");
    const dir = join(dirname(pkg), "dist");
    return existsSync(join(dir, "index.html")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

export function mountPortal(app: Express, dir: string): void {
  const files = express.static(dir, {
    index: false,
    fallthrough: true,
    redirect: false,
    setHeaders: (res, path) => {
      res.setHeader("Content-Security-Policy", PORTAL_CSP);
      res.setHeader(
        "Cache-Control",
        path.includes(`${join(dir, "assets")}`) ? "public, max-age=31536000, immutable" : "no-cache",
      );
    },
  });
  const index = join(dir, "index.html");
  app.use((req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || RESERVED.test(req.path)) return next();
    files(req, res, () => {
      // A deep link: no file extension in the last segment (a missing asset stays a 404).
      const last = req.path.split("/").pop() ?? "";
      if (last.includes(".") || req.path.startsWith("/assets/")) return next();
      res.setHeader("Content-Security-Policy", PORTAL_CSP);
      res.setHeader("Cache-Control", "no-cache");
      res.sendFile(index, { dotfiles: "deny" }, (err) => err && next(err));
    });
  });
}
