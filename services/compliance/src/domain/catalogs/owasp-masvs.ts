// OWASP Mobile Application Security Verification Standard 2.1.0: the controls of every group.
// Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const owaspMasvs: Catalog = {
  id: "owasp-masvs",
  name: "OWASP Mobile Application Security Verification Standard",
  version: "2.1.0",
  kind: "framework",
  source_url: "https://mas.owasp.org/MASVS/",
  controls: [
    ...family("MASVS-STORAGE", [
      ["MASVS-STORAGE-1", "Sensitive data is stored securely"],
      ["MASVS-STORAGE-2", "Sensitive data does not leak"],
    ]),
    ...family("MASVS-CRYPTO", [
      ["MASVS-CRYPTO-1", "Current, strong cryptography used as recommended"],
      ["MASVS-CRYPTO-2", "Keys managed according to best practices"],
    ]),
    ...family("MASVS-AUTH", [
      ["MASVS-AUTH-1", "Secure authentication and authorization protocols"],
      ["MASVS-AUTH-2", "Secure local authentication"],
      ["MASVS-AUTH-3", "Sensitive operations need additional authentication"],
    ]),
    ...family("MASVS-NETWORK", [
      ["MASVS-NETWORK-1", "All network traffic secured"],
      ["MASVS-NETWORK-2", "Identity pinning for endpoints under the developer's control"],
    ]),
    ...family("MASVS-PLATFORM", [
      ["MASVS-PLATFORM-1", "IPC mechanisms used securely"],
      ["MASVS-PLATFORM-2", "WebViews used securely"],
      ["MASVS-PLATFORM-3", "User interface used securely"],
    ]),
    ...family("MASVS-CODE", [
      ["MASVS-CODE-1", "Up-to-date platform version required"],
      ["MASVS-CODE-2", "App updates can be enforced"],
      ["MASVS-CODE-3", "Only components without known vulnerabilities"],
      ["MASVS-CODE-4", "Untrusted input validated and sanitized"],
    ]),
    ...family("MASVS-RESILIENCE", [
      ["MASVS-RESILIENCE-1", "Platform integrity validated"],
      ["MASVS-RESILIENCE-2", "Anti-tampering mechanisms"],
      ["MASVS-RESILIENCE-3", "Anti-static-analysis mechanisms"],
      ["MASVS-RESILIENCE-4", "Anti-dynamic-analysis mechanisms"],
    ]),
    ...family("MASVS-PRIVACY", [
      ["MASVS-PRIVACY-1", "Access to sensitive data and resources minimized"],
      ["MASVS-PRIVACY-2", "User identification prevented"],
      ["MASVS-PRIVACY-3", "Transparent data collection and use"],
      ["MASVS-PRIVACY-4", "User control over their data"],
    ]),
  ],
};
