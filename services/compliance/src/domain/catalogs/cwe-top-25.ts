// The 2024 CWE Top 25 Most Dangerous Software Weaknesses, in rank order. The full CWE entries
// Verdict names are in the `cwe` catalog; this list is the ranking. Titles are our own wording.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const cweTop25: Catalog = {
  id: "cwe-top-25",
  name: "CWE Top 25 Most Dangerous Software Weaknesses",
  version: "2024",
  kind: "framework",
  source_url: "https://cwe.mitre.org/top25/archive/2024/2024_cwe_top25.html",
  controls: family("Top 25", [
    ["CWE-79", "Cross-site scripting"],
    ["CWE-787", "Out-of-bounds write"],
    ["CWE-89", "SQL injection"],
    ["CWE-352", "Cross-site request forgery"],
    ["CWE-22", "Path traversal"],
    ["CWE-125", "Out-of-bounds read"],
    ["CWE-78", "OS command injection"],
    ["CWE-416", "Use after free"],
    ["CWE-862", "Missing authorization"],
    ["CWE-434", "Unrestricted upload of dangerous file types"],
    ["CWE-94", "Code injection"],
    ["CWE-20", "Improper input validation"],
    ["CWE-77", "Command injection"],
    ["CWE-287", "Improper authentication"],
    ["CWE-269", "Improper privilege management"],
    ["CWE-502", "Deserialization of untrusted data"],
    ["CWE-200", "Exposure of sensitive information"],
    ["CWE-863", "Incorrect authorization"],
    ["CWE-918", "Server-side request forgery"],
    ["CWE-119", "Memory buffer bounds not restricted"],
    ["CWE-476", "NULL pointer dereference"],
    ["CWE-798", "Hard-coded credentials"],
    ["CWE-190", "Integer overflow or wraparound"],
    ["CWE-400", "Uncontrolled resource consumption"],
    ["CWE-306", "Missing authentication for a critical function"],
  ]),
};
