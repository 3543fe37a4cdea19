// Keys too short for their algorithm (CWE-326): RSA, DSA and Diffie-Hellman keys under 2048 bits
// (NIST SP 800-57 Part 1 and SP 800-131A: 2048 bits is the least for these algorithms since
// 2014). Elliptic-curve sizes are not judged by these rules: 256 bits is a sound curve.
import {
  type BuiltinPolicy,
  builtinSettings,
  CRYPTO_FRAMEWORKS,
  docs,
  paths,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";

// A whole number of bits under 2048 (RE2).
const UNDER_2048 = String.raw`(?:[1-9][0-9]{0,2}|1[0-9]{3}|20[0-3][0-9]|204[0-7])`;

export const weakKeySize: BuiltinPolicy = {
  id: "weak-key-size",
  name: "Weak key size",
  description:
    "Detects RSA, DSA and Diffie-Hellman keys generated with fewer than 2048 bits: KeyPairGenerator.initialize in a method that asks for an RSA, DSA or DH generator, and RSAKeyGenParameterSpec (Java); cryptography's rsa/dsa generate_private_key(key_size=…) and PyCryptodome's RSA/DSA.generate (Python); rsa.GenerateKey (Go); crypto.generateKeyPair(Sync) of rsa, dsa or dh with a modulusLength under 2048 (JavaScript, TypeScript). Elliptic-curve key sizes are not reported.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...CRYPTO_FRAMEWORKS, "owasp-asvs:V6.2.5", "cwe:CWE-326"],
  patterns: [
    {
      id: "java-short-key-pair",
      type: "structural",
      value: structural(
        ["java"],
        {
          any: [
            {
              any: [{ pattern: "$G.initialize($BITS)" }, { pattern: "$G.initialize($BITS, $RANDOM)" }],
              inside: {
                kind: "method_declaration",
                has: {
                  pattern: "KeyPairGenerator.getInstance($ALG)",
                  has: { field: "arguments", regex: String.raw`^\(\s*"(?:RSA|DSA|DH|DiffieHellman)"` },
                  stopBy: "end",
                },
                stopBy: "end",
              },
            },
            { pattern: "new RSAKeyGenParameterSpec($BITS, $$$REST)" },
          ],
        },
        { BITS: { regex: `^${UNDER_2048}$` } },
      ),
      message: "The RSA, DSA or DH key is shorter than 2048 bits",
      keywords: ["keypairgenerator", "rsakeygenparameterspec"],
    },
    {
      id: "python-short-key",
      type: "regex",
      value: String.raw`\b(?:(?:rsa|dsa)\.generate_private_key\s*\([^)]*\bkey_size\s*=\s*|\b(?:RSA|DSA)\.generate\s*\(\s*(?:bits\s*=\s*)?)${UNDER_2048}\b`,
      message: "The RSA or DSA key is shorter than 2048 bits",
      paths: paths("python"),
    },
    {
      id: "go-short-rsa-key",
      type: "regex",
      value: String.raw`\brsa\.GenerateKey\s*\(\s*[\w.]+\s*,\s*${UNDER_2048}\s*\)`,
      message: "The RSA key is shorter than 2048 bits",
      paths: paths("go"),
    },
    {
      id: "js-short-key-pair",
      type: "regex",
      value: String.raw`\bgenerateKeyPair(?:Sync)?\s*\(\s*["'\x60](?:rsa|rsa-pss|dsa|dh)["'\x60]\s*,\s*\{[^}]*\bmodulusLength\s*:\s*${UNDER_2048}\b`,
      message: "The RSA, DSA or DH key is shorter than 2048 bits",
      paths: paths("js"),
    },
  ],
  suggestions: [
    "Generate RSA, DSA and Diffie-Hellman keys of at least 2048 bits (3072 for use past 2030), or use elliptic-curve keys (P-256, X25519, Ed25519).",
  ],
  claims: {
    cwe: { "CWE-326": ["java-short-key-pair", "python-short-key", "go-short-rsa-key", "js-short-key-pair"] },
    languages: ["go", "java", "javascript", "python"],
  },
  documentation_url: docs("weak-key-size"),
  settings: builtinSettings(),
};
