// DORA, Digital Operational Resilience Act (Regulation (EU) 2022/2554): the ICT risk-management
// articles on protection and prevention (Art. 9) and the testing of ICT tools (Art. 24–25) that
// code speaks to. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const dora: Catalog = {
  id: "dora",
  name: "Digital Operational Resilience Act (DORA)",
  version: "(EU) 2022/2554",
  kind: "regulation",
  source_url: "https://eur-lex.europa.eu/eli/reg/2022/2554/oj",
  controls: [
    ...family("Art.8", [["Art.8(1)", "ICT assets and their risks identified and documented"]]),
    ...family("Art.9", [
      ["Art.9(1)", "Security of ICT systems continuously monitored and controlled"],
      ["Art.9(2)", "Security policies and tools preserve availability, authenticity, integrity and confidentiality"],
      ["Art.9(3)(a)", "Means of data transfer secured"],
      ["Art.9(3)(b)", "Risk of data corruption, unauthorised access and technical flaws minimised"],
      ["Art.9(3)(c)", "Breaches of authenticity, integrity and confidentiality prevented"],
      ["Art.9(3)(d)", "Data protected from data management risks and human error"],
      ["Art.9(4)(a)", "Information security policy"],
      ["Art.9(4)(b)", "Network and infrastructure management"],
      ["Art.9(4)(c)", "Logical access limited to what is required (least privilege)"],
      ["Art.9(4)(d)", "Strong authentication and protection of cryptographic keys"],
      ["Art.9(4)(e)", "ICT change management"],
      ["Art.9(4)(f)", "Patching and updates"],
    ]),
    ...family("Art.24-25", [
      ["Art.24(1)", "Digital operational resilience testing programme"],
      ["Art.25(1)", "Testing of ICT tools and systems, including source code reviews"],
    ]),
  ],
};
