import { describe, expect, it } from "@jest/globals";
import { createHash, generateKeyPairSync, verify } from "node:crypto";
import { complianceConfig } from "../config.js";
import { generateReportKeyPem, loadReportKey, reportKeyProblem, sealFile } from "./reportKey.js";

describe("the report key", () => {
  it("seals a file: its SHA-256 and an Ed25519 signature its public key verifies, and no other file", () => {
    const key = loadReportKey(generateReportKeyPem());
    const file = Buffer.from("%PDF-1.7 evidence");
    const seal = sealFile(key, file);
    expect(seal.sha256).toBe(createHash("sha256").update(file).digest("hex"));
    expect(seal.keyId).toBe(createHash("sha256").update(Buffer.from(key.x, "base64url")).digest("hex"));
    const signature = Buffer.from(seal.signature, "base64");
    expect(signature).toHaveLength(64);
    expect(verify(null, file, key.publicKeyPem, signature)).toBe(true);
    expect(verify(null, Buffer.from("%PDF-1.7 evidencf"), key.publicKeyPem, signature)).toBe(false);
  });

  it("is configured as PKCS#8 PEM, with line breaks or `\\n`, and only Ed25519", () => {
    const pem = generateReportKeyPem();
    const parse = (v: string) => complianceConfig.safeParse({ VERDICT_REPORT_PRIVATE_KEY: v });
    expect(parse(pem).data?.VERDICT_REPORT_PRIVATE_KEY).toBe(pem);
    expect(parse(pem.replace(/\n/g, "\\n")).data?.VERDICT_REPORT_PRIVATE_KEY).toBe(pem);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ format: "pem", type: "pkcs8" });
    expect(parse(rsa.toString()).error?.issues[0]?.message).toBe("must be an Ed25519 private key (this one is rsa)");
    expect(reportKeyProblem("not a key")).toMatch(/^must be an Ed25519 private key in PKCS#8 PEM/);
    expect(() => loadReportKey("not a key")).toThrow(/^report private key must be/);
  });
});
