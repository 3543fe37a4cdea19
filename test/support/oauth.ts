// A browser stand-in for the OAuth suites: follows redirects by hand with a cookie jar (the
// session cookie and the authorization server's own), so a test sees every hop.
import { crc32 } from "node:zlib";
import * as oidc from "openid-client";

export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(cookie?: string) {
    if (cookie) this.setCookie(cookie);
  }

  private setCookie(pair: string): void {
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value) this.jar.set(name, value);
    else this.jar.delete(name);
  }

  /** Drops a cookie, as signing out in another tab would. */
  forget(name: string): void {
    this.jar.delete(name);
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? "GET", headers, body, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) this.setCookie(c.split(";")[0]!);
    return res;
  }

  /**
   * Follows redirects from `url` until one leaves for `stopAt` (the application's redirect URI,
   * where no server listens) or a page answers. Returns that final URL or the page.
   */
  async follow(
    url: string,
    stopAt: string,
    init: { method?: string; form?: Record<string, string> } = {},
  ): Promise<{ redirectedTo?: URL; page?: Response; hops: string[] }> {
    const hops: string[] = [];
    let res = await this.request(url, init);
    let at = url;
    for (let i = 0; i < 10; i++) {
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { page: res, hops };
      const next = new URL(location, at).href;
      hops.push(next);
      if (next.startsWith(stopAt)) return { redirectedTo: new URL(next), hops };
      at = next;
      res = await this.request(next);
    }
    throw new Error(`too many redirects: ${hops.join(" -> ")}`);
  }
}

/** The hidden CSRF field of the consent page. */
export function csrfFieldOf(html: string): string {
  const m = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no csrf_token in ${html}`);
  return m[1]!;
}

/** An independent check of the checksum (CRC-32 as 6 base62 digits) of `vdt_…` tokens. */
export function checksumHolds(token: string, prefix: string): boolean {
  const rest = token.slice(prefix.length);
  if (!token.startsWith(prefix) || !/^[0-9A-Za-z]{38}$/.test(rest)) return false;
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let n = crc32(Buffer.from(rest.slice(0, 32), "ascii")) >>> 0;
  let digits = "";
  for (let i = 0; i < 6; i++) {
    digits = alphabet[n % 62] + digits;
    n = Math.floor(n / 62);
  }
  return digits === rest.slice(32);
}

/**
 * An application's authorization code + PKCE flow for a signed-in person (their session cookie),
 * driven by openid-client: discovery, authorize, consent (allow), the code for tokens. Answers
 * the client's configuration, the code and the tokens.
 */
export async function grantTokens(opts: {
  baseUrl: string;
  client: { client_id: string; client_secret: string };
  cookie: string;
  redirect: string;
  scope: string;
}): Promise<{ cfg: oidc.Configuration; code: string; tokens: oidc.TokenEndpointResponse }> {
  const cfg = await oidc.discovery(
    new URL(`${opts.baseUrl}/auth`),
    opts.client.client_id,
    undefined,
    oidc.ClientSecretPost(opts.client.client_secret),
    { execute: [oidc.allowInsecureRequests], algorithm: "oauth2" },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(cfg, {
    redirect_uri: opts.redirect,
    scope: opts.scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  const browser = new Browser(opts.cookie);
  const first = await browser.follow(url.href, opts.redirect);
  const consent = await first.page!.text();
  const uid = /\/auth\/oauth\/interaction\/([^/]+)\/confirm/.exec(consent)![1]!;
  const done = await browser.follow(`${opts.baseUrl}/auth/oauth/interaction/${uid}/confirm`, opts.redirect, {
    method: "POST",
    form: { csrf_token: csrfFieldOf(consent) },
  });
  const tokens = await oidc.authorizationCodeGrant(cfg, done.redirectedTo!, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { cfg, code: done.redirectedTo!.searchParams.get("code")!, tokens };
}
