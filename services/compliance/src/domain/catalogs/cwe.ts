// MITRE Common Weakness Enumeration: the source-code weaknesses Verdict's checks name, plus the
// other code-level weaknesses a code policy can speak to (so coverage stays honest). Titles are
// our own short summaries of each entry.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const cwe: Catalog = {
  id: "cwe",
  name: "Common Weakness Enumeration (CWE)",
  version: "4.16",
  kind: "framework",
  source_url: "https://cwe.mitre.org/",
  controls: [
    ...family("Injection", [
      ["CWE-77", "Command injection"],
      ["CWE-78", "OS command injection"],
      ["CWE-79", "Cross-site scripting"],
      ["CWE-89", "SQL injection"],
      ["CWE-90", "LDAP injection"],
      ["CWE-94", "Code injection"],
      ["CWE-95", "Eval injection"],
      ["CWE-643", "XPath injection"],
      ["CWE-917", "Expression language injection"],
      ["CWE-1336", "Template engine injection"],
    ]),
    ...family("Input handling", [
      ["CWE-20", "Improper input validation"],
      ["CWE-22", "Path traversal"],
      ["CWE-502", "Deserialization of untrusted data"],
      ["CWE-601", "Open redirect"],
      ["CWE-611", "XML external entity reference"],
      ["CWE-918", "Server-side request forgery"],
      ["CWE-1321", "Prototype pollution"],
    ]),
    ...family("Credentials and secrets", [
      ["CWE-256", "Passwords stored in plaintext"],
      ["CWE-259", "Hard-coded password"],
      ["CWE-321", "Hard-coded cryptographic key"],
      ["CWE-522", "Insufficiently protected credentials"],
      ["CWE-798", "Hard-coded credentials"],
    ]),
    ...family("Cryptography", [
      ["CWE-295", "Improper certificate validation"],
      ["CWE-319", "Cleartext transmission of sensitive data"],
      ["CWE-326", "Encryption too weak"],
      ["CWE-327", "Broken or risky cryptographic algorithm"],
      ["CWE-328", "Weak hash"],
      ["CWE-330", "Insufficiently random values"],
      ["CWE-338", "Non-cryptographic PRNG used for security"],
      ["CWE-916", "Password hash with too little computational effort"],
    ]),
    ...family("Configuration and privileges", [
      ["CWE-215", "Sensitive information in debugging code"],
      ["CWE-250", "Execution with unnecessary privileges"],
      ["CWE-284", "Improper access control"],
      ["CWE-269", "Improper privilege management"],
      ["CWE-352", "Cross-site request forgery"],
      ["CWE-489", "Active debug code"],
      ["CWE-494", "Code downloaded without an integrity check"],
      ["CWE-829", "Inclusion of functionality from an untrusted control sphere"],
      ["CWE-942", "Permissive cross-domain policy with untrusted domains"],
      ["CWE-1357", "Reliance on insufficiently trustworthy components"],
    ]),
    ...family("Information exposure", [
      ["CWE-200", "Exposure of sensitive information to an unauthorized actor"],
      ["CWE-209", "Sensitive information in error messages"],
      ["CWE-311", "Missing encryption of sensitive data"],
      ["CWE-312", "Cleartext storage of sensitive information"],
      ["CWE-532", "Sensitive information in log files"],
      ["CWE-614", "Sensitive cookie without the Secure attribute"],
      ["CWE-1004", "Sensitive cookie without the HttpOnly flag"],
      ["CWE-778", "Insufficient logging"],
    ]),
  ],
};
