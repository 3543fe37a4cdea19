// Helpers for the people suites: a person's browser-like session (cookie + CSRF token), invitations,
// and an independent RFC 6238 TOTP implementation (node:crypto only, not the service's library).
import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { expect } from "@jest/globals";
import type { Api, ApiResponse } from "./api.js";

/** RFC 4648 base32 decoding. */
function base32(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code (HMAC-SHA1, 6 digits, 30 s) for a time step offset from now. */
export function totpCode(secretBase32: string, stepOffset = 0, nowMs = Date.now()): string {
  const counter = Math.floor(nowMs / 30_000) + stepOffset;
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", base32(secretBase32)).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(bin).padStart(6, "0");
}

export interface Person {
  email: string;
  password: string;
  /** `verdict_session=…` as a Cookie header. */
  cookie: string;
  token: string;
  csrf: string;
  login: ApiResponse;
}

export function cookieOf(res: ApiResponse): { name: string; value: string; attributes: string } | undefined {
  const raw = res.headers.getSetCookie()[0];
  if (!raw) return undefined;
  const [pair, ...attrs] = raw.split(";");
  const eq = pair!.indexOf("=");
  return {
    name: pair!.slice(0, eq).trim(),
    value: pair!.slice(eq + 1).trim(),
    attributes: attrs.map((a) => a.trim()).join("; "),
  };
}

export async function signIn(
  api: Api,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Person> {
  const login = await api.post("/auth/login", { email, password }, { key: null, headers });
  expect({ status: login.status, body: login.body }).toMatchObject({ status: 200, body: { mfa_required: false } });
  const c = cookieOf(login)!;
  return {
    email,
    password,
    cookie: `${c.name}=${c.value}`,
    token: c.value,
    csrf: login.body.session.csrf_token,
    login,
  };
}

/** Request options acting as the signed-in person (cookie, CSRF header unless told otherwise). */
export function as(
  p: Pick<Person, "cookie" | "csrf">,
  csrf: string | null = p.csrf,
): { key: null; headers: Record<string, string> } {
  return { key: null, headers: { cookie: p.cookie, ...(csrf ? { "x-csrf-token": csrf } : {}) } };
}

export function invitationToken(url: string): string {
  const m = /#token=(vdt_inv_[0-9A-Za-z]+)$/.exec(url);
  expect(m).not.toBeNull();
  return m![1]!;
}

/** Invites (as `inviter`, a key-bearing Api, at `path`) and accepts: a signed-up member. */
export async function addMember(
  inviter: Api,
  email: string,
  role: string,
  password: string,
  opts: { path?: string; as?: ReturnType<typeof as> } = {},
): Promise<string> {
  const invited = await inviter.post(opts.path ?? "/v1/members", { email, role }, opts.as);
  expect(invited.status).toBe(201);
  const accepted = await inviter.post(
    "/auth/invitations/accept",
    { token: invitationToken(invited.body.invitation_url), name: email.split("@")[0], password },
    { key: null },
  );
  expect(accepted.status).toBe(201);
  return invited.body.id as string;
}

/** A raw HTTP request with a chosen Host header (fetch does not let one be set). */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
