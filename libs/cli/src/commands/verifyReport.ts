// verdict reports verify FILE: checks a report file's detached Ed25519 signature against the
// instance's report public key, offline (--public-key) or fetched from the server's well-known
// path. Exit 0 when it verifies, 1 when it does not (a changed byte, another key), 2 when it
// could not check (no signature file, no key).
import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { VerdictClient } from "@verdict/sdk";
import type { Context } from "../context.js";
import { CliError, EXIT } from "../errors.js";
import { jsonOf } from "./shared.js";

const SIGNATURE_BYTES = 64;

/** A signature file holds the 64 raw bytes, or their base64 (the report's `signature` field). */
export function readSignature(bytes: Buffer): Buffer | undefined {
  if (bytes.length === SIGNATURE_BYTES) return bytes;
  const text = bytes.toString("latin1").trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const decoded = Buffer.from(text, "base64");
  return decoded.length === SIGNATURE_BYTES ? decoded : undefined;
}

function ed25519Key(pem: string, from: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new CliError(`${from} is not a public key in PEM`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new CliError(
      `${from} is a ${key.asymmetricKeyType ?? "non-asymmetric"} key; reports are signed with Ed25519`,
    );
  return key;
}

/** SHA-256 of the raw public key, hex: the report's `signature_key_id`. */
export function keyId(key: KeyObject): string {
  return createHash("sha256")
    .update(Buffer.from(key.export({ format: "jwk" }).x!, "base64url"))
    .digest("hex");
}

function readFileOr(path: string, what: string): Buffer {
  if (!existsSync(path)) throw new CliError(`${what} not found: ${path}`);
  return readFileSync(path);
}

export function verifyReportCommand(reports: Command, ctx: Context): void {
  reports
    .command("verify")
    .description("check a report file's signature by this instance's report key")
    .argument("<file>", "the report file (PDF or OSCAL ZIP) as downloaded")
    .option("--signature <file>", "its detached signature (raw or base64)", "<file>.sig")
    .option("--public-key <pem>", "the instance's report public key (/.well-known/verdict-report-key.pem), offline")
    .option("--server <url>", "fetch the public key from this Verdict server (default: the configured one)")
    .action(async (file: string, opts: { signature: string; publicKey?: string; server?: string }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      if (opts.publicKey && opts.server) throw new CliError("give --public-key or --server, not both");
      const path = resolve(ctx.io.cwd, file);
      const sigPath = opts.signature === "<file>.sig" ? `${path}.sig` : resolve(ctx.io.cwd, opts.signature);
      const content = readFileOr(path, "report file");
      const signature = readSignature(readFileOr(sigPath, "signature file"));
      if (!signature) throw new CliError(`${sigPath} is not an Ed25519 signature (64 bytes, raw or base64)`);
      let pem: string;
      let source: string;
      if (opts.publicKey) {
        pem = readFileOr(resolve(ctx.io.cwd, opts.publicKey), "public key").toString("utf8");
        source = opts.publicKey;
      } else {
        const client = opts.server ? new VerdictClient({ baseUrl: opts.server }) : ctx.client({ anonymous: true });
        pem = await client.reportPublicKey();
        source = `${client.baseUrl}/.well-known/verdict-report-key.pem`;
      }
      const key = ed25519Key(pem, source);
      const sha256 = createHash("sha256").update(content).digest("hex");
      const valid = verify(null, content, key, signature);
      const result = { file, valid, sha256, size_bytes: content.length, key_id: keyId(key), public_key: source };
      if (out.json) out.data(result);
      else if (valid)
        out.line(
          `${out.c.green("verified")}: ${file} (${content.length} bytes, sha256 ${sha256}) is signed by the Ed25519 report key ${result.key_id} from ${source}`,
        );
      if (!valid) {
        if (!out.json)
          out.note(
            `${out.c.red("NOT verified")}: ${file} (sha256 ${sha256}) does not match its signature ${sigPath} under the report key ${result.key_id} from ${source}: the file was changed, or it was signed by another key`,
          );
        process.exitCode = EXIT.failed;
      }
    });
}
