// NIS2 Directive (EU) 2022/2555, Article 21: the cybersecurity risk-management measures essential
// and important entities must take. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const nis2: Catalog = {
  id: "nis2",
  name: "NIS2 Directive",
  version: "(EU) 2022/2555",
  kind: "regulation",
  source_url: "https://eur-lex.europa.eu/eli/dir/2022/2555/oj",
  controls: family("Art.21", [
    ["Art.21(1)", "Appropriate and proportionate technical and organisational measures"],
    ["Art.21(2)(a)", "Risk analysis and information system security policies"],
    ["Art.21(2)(b)", "Incident handling"],
    ["Art.21(2)(c)", "Business continuity and crisis management"],
    ["Art.21(2)(d)", "Supply chain security"],
    ["Art.21(2)(e)", "Security in acquisition, development and maintenance, including vulnerability handling"],
    ["Art.21(2)(f)", "Assessing the effectiveness of risk-management measures"],
    ["Art.21(2)(g)", "Basic cyber hygiene and training"],
    ["Art.21(2)(h)", "Use of cryptography and encryption"],
    ["Art.21(2)(i)", "Human resources security, access control and asset management"],
    ["Art.21(2)(j)", "Multi-factor authentication and secured communications"],
  ]),
};
