// OWASP Top 10 Proactive Controls (2024): what developers should build in. Our own wording.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const owaspProactiveControls: Catalog = {
  id: "owasp-proactive-controls",
  name: "OWASP Top 10 Proactive Controls",
  version: "2024",
  kind: "framework",
  source_url: "https://owasp.org/www-project-proactive-controls/",
  controls: family("Proactive Controls", [
    ["C1", "Implement access control"],
    ["C2", "Use cryptography to protect data and secrets"],
    ["C3", "Validate all input and handle exceptions"],
    ["C4", "Address security from the start"],
    ["C5", "Secure-by-default configurations"],
    ["C6", "Keep components secure"],
    ["C7", "Secure digital identities"],
    ["C8", "Leverage browser security features"],
    ["C9", "Implement security logging and monitoring"],
    ["C10", "Stop server-side request forgery"],
  ]),
};
