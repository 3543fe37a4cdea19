// EU Cyber Resilience Act (Regulation (EU) 2024/2847), Annex I: the essential cybersecurity
// requirements for products with digital elements (Part I) and the vulnerability handling
// requirements (Part II). Ids are <part>(<point>). Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const euCra: Catalog = {
  id: "eu-cra",
  name: "EU Cyber Resilience Act (CRA)",
  version: "(EU) 2024/2847",
  kind: "regulation",
  source_url: "https://eur-lex.europa.eu/eli/reg/2024/2847/oj",
  controls: [
    ...family("Annex I Part I", [
      ["I(1)", "Designed, developed and produced for an appropriate level of cybersecurity"],
      ["I(2)(a)", "Placed on the market without known exploitable vulnerabilities"],
      ["I(2)(b)", "Secure by default configuration"],
      ["I(2)(c)", "Vulnerabilities addressable through security updates"],
      ["I(2)(d)", "Protection from unauthorised access (authentication, identity and access management)"],
      ["I(2)(e)", "Confidentiality of data protected, e.g. by state-of-the-art encryption"],
      ["I(2)(f)", "Integrity of data, commands, programs and configuration protected"],
      ["I(2)(g)", "Data minimisation"],
      ["I(2)(h)", "Availability of essential functions"],
      ["I(2)(i)", "Minimal negative impact on other devices or networks"],
      ["I(2)(j)", "Limited attack surfaces, including external interfaces"],
      ["I(2)(k)", "Exploitation mitigation mechanisms reduce incident impact"],
      ["I(2)(l)", "Security-relevant internal activity recorded and monitored"],
      ["I(2)(m)", "Data and settings can be securely and easily removed"],
    ]),
    ...family("Annex I Part II", [
      ["II(1)", "Vulnerabilities and components identified and documented (SBOM)"],
      ["II(2)", "Vulnerabilities addressed and remediated without delay"],
      ["II(3)", "Effective and regular security tests and reviews"],
      ["II(4)", "Information about fixed vulnerabilities disclosed"],
      ["II(5)", "Coordinated vulnerability disclosure policy"],
      ["II(6)", "Sharing of information about potential vulnerabilities facilitated"],
      ["II(7)", "Secure distribution of updates"],
      ["II(8)", "Security updates disseminated without delay and free of charge"],
    ]),
  ],
};
