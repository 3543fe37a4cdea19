// The instance's report key: an Ed25519 key pair whose private half signs every report file
// (PDF, OSCAL ZIP) as it is stored, and whose public half anyone may fetch
// (/.well-known/verdict-report-key.pem) to check that a file came from this instance unchanged:
//   openssl pkeyutl -verify -pubin -inkey verdict-report-key.pem -rawin -in FILE -sigfile FILE.sig
// Separate from the HMAC key of download links (signing.ts): that one only authorizes a download.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";

export const REPORT_SIGNATURE_ALGORITHM = "Ed25519";
/** Where the gateway serves the public key (PEM; the JWK at `.jwk`), from the API's origin. */
export const REPORT_KEY_PATH = "/.well-known/verdict-report-key.pem";

/** A new private key as PKCS#8 PEM (what VERDICT_REPORT_PRIVATE_KEY holds). */
export function generateReportKeyPem(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString().trim();
}

/** Why a PEM is not an Ed25519 private key, or undefined when it is. */
export function reportKeyProblem(pem: string): string | undefined {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === "ed25519"
      ? undefined
      : `must be an Ed25519 private key (this one is ${key.asymmetricKeyType ?? "not asymmetric"})`;
  } catch {
    return "must be an Ed25519 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)";
  }
}

export interface ReportKey {
  privateKey: KeyObject;
  /** SubjectPublicKeyInfo PEM, as served at the well-known path. */
  publicKeyPem: string;
  /** The raw 32-byte public key, base64url (a JWK's `x`). */
  x: string;
  /** SHA-256 of the raw public key, hex: names the key in reports and on the dashboard. */
  keyId: string;
}

export function loadReportKey(pem: string): ReportKey {
  const problem = reportKeyProblem(pem);
  if (problem) throw new Error(`report private key ${problem}`);
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const x = publicKey.export({ format: "jwk" }).x!;
  return {
    privateKey,
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    x,
    keyId: createHash("sha256").update(Buffer.from(x, "base64url")).digest("hex"),
  };
}

export interface FileSeal {
  /** SHA-256 of the file, hex. */
  sha256: string;
  /** Ed25519 signature of the file's bytes (64 bytes), base64. */
  signature: string;
  keyId: string;
}

/** The digest and detached signature of a report file. */
export function sealFile(key: ReportKey, content: Uint8Array): FileSeal {
  return {
    sha256: createHash("sha256").update(content).digest("hex"),
    signature: sign(null, content, key.privateKey).toString("base64"),
    keyId: key.keyId,
  };
}
