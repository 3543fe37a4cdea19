// Secrets at rest (webhook endpoint secrets, TOTP seeds): AES-256-GCM under the instance's master
// key, bound to a context (additional authenticated data: the owning record's id), so a sealed
// value cannot be moved to another record.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

export const MASTER_KEY_BYTES = 32;

/** A master key from configuration: base64 of exactly 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new Error("must be base64");
  const key = Buffer.from(trimmed, trimmed.includes("-") || trimmed.includes("_") ? "base64url" : "base64");
  if (key.length !== MASTER_KEY_BYTES)
    throw new Error(`must decode to ${MASTER_KEY_BYTES} bytes (found ${key.length})`);
  return key;
}

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== MASTER_KEY_BYTES) throw new Error(`master key must be ${MASTER_KEY_BYTES} bytes`);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
  }

  /** Throws when the value was sealed under another key or for another context, or altered. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, data] = sealed.split(":");
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
  }
}
