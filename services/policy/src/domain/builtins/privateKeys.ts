import { type BuiltinPolicy, builtinSettings, docs, EVERY_RULE, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const privateKeys: BuiltinPolicy = {
  id: "private-keys",
  name: "Private keys",
  description:
    "Detects PEM, OpenSSH and PGP private key blocks, PuTTY private key files and age secret keys committed to source.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [
    ...SECRET_FRAMEWORKS,
    "owasp-asvs:V6.4.2",
    "cwe:CWE-321",
    "owasp-top-10:A02",
    "owasp-masvs:MASVS-CRYPTO-2",
    "iso-27001:A.8.24",
    "pci-dss:3.6.1",
    "nist-800-53:SC-12",
    "fedramp-moderate:SC-12",
    "nist-800-171:3.13.10",
    "cmmc:SC.L2-3.13.10",
  ],
  patterns: [
    {
      id: "private-key-block",
      type: "regex",
      // The header itself is not secret; group 1 captures the key material that follows it, on
      // the next lines or on the same line (one-line strings with escaped newlines), which is
      // masked. PEM headers of encrypted keys (Proc-Type, DEK-Info) may come first. A header
      // with no key material after it (an empty BEGIN/END pair, a placeholder) is not a key.
      value: String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[ \t]*((?:\\[rn]|\r?\n)*(?:[A-Za-z-]+:[^\r\n\\]*(?:\\[rn]|\r?\n)+)*[A-Za-z0-9+/=]{20}(?:\\[rn]|\r?\n|[A-Za-z0-9+/=])*)`,
      message: "Private key found in source code",
      redact_group: 1,
      keywords: ["private key"],
    },
    {
      id: "putty-private-key",
      type: "regex",
      value: String.raw`\bPuTTY-User-Key-File-[23]:[ \t]*[\w-]+`,
      message: "PuTTY private key file found in source code",
      keywords: ["putty-user-key-file"],
    },
    {
      id: "age-secret-key",
      type: "regex",
      value: String.raw`\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b`,
      message: "age secret key found in source code",
      keywords: ["age-secret-key-1"],
    },
  ],
  suggestions: [
    "Revoke this key and issue a new one; keep private keys in a secrets manager or key vault and out of the repository.",
  ],
  claims: { cwe: { "CWE-798": EVERY_RULE, "CWE-321": EVERY_RULE }, languages: [] },
  documentation_url: docs("private-keys"),
  settings: builtinSettings(),
};
