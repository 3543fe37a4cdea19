// GDPR (Regulation (EU) 2016/679): the security principle and the articles on data protection by
// design and security of processing, by paragraph. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const gdpr: Catalog = {
  id: "gdpr",
  name: "General Data Protection Regulation (GDPR)",
  version: "2016/679",
  kind: "regulation",
  source_url: "https://eur-lex.europa.eu/eli/reg/2016/679/oj",
  controls: [
    ...family("Art.5", [["Art.5(1)(f)", "Integrity and confidentiality of personal data"]]),
    ...family("Art.25", [
      ["Art.25(1)", "Data protection by design"],
      ["Art.25(2)", "Data protection by default"],
    ]),
    ...family("Art.32", [
      ["Art.32(1)(a)", "Pseudonymisation and encryption of personal data"],
      ["Art.32(1)(b)", "Ongoing confidentiality, integrity, availability and resilience of processing systems"],
      ["Art.32(1)(c)", "Timely restoration of availability after an incident"],
      ["Art.32(1)(d)", "Regular testing and evaluation of security measures"],
      ["Art.32(2)", "Security level assessed against the risks of processing"],
    ]),
  ],
};
