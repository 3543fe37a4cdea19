// HIPAA Security Rule, technical safeguards: 45 CFR 164.312 (a)(1) to (e)(2)(ii), standards and
// implementation specifications. Titles are our own short summaries.
import { family } from "./controls.js";
import type { Catalog } from "./types.js";

export const hipaa: Catalog = {
  id: "hipaa",
  name: "HIPAA Security Rule (technical safeguards)",
  version: "45 CFR 164.312",
  kind: "regulation",
  source_url: "https://www.ecfr.gov/current/title-45/subtitle-A/subchapter-C/part-164/subpart-C/section-164.312",
  controls: [
    ...family("164.312(a)", [
      ["164.312(a)(1)", "Access control: only authorized persons and software reach ePHI"],
      ["164.312(a)(2)(i)", "Unique user identification"],
      ["164.312(a)(2)(ii)", "Emergency access procedure"],
      ["164.312(a)(2)(iii)", "Automatic logoff"],
      ["164.312(a)(2)(iv)", "Encryption and decryption of ePHI"],
    ]),
    ...family("164.312(b)", [["164.312(b)", "Audit controls record and examine activity"]]),
    ...family("164.312(c)", [
      ["164.312(c)(1)", "Integrity: ePHI protected from improper alteration or destruction"],
      ["164.312(c)(2)", "Mechanism to authenticate ePHI"],
    ]),
    ...family("164.312(d)", [["164.312(d)", "Person or entity authentication"]]),
    ...family("164.312(e)", [
      ["164.312(e)(1)", "Transmission security over electronic networks"],
      ["164.312(e)(2)(i)", "Integrity controls for transmitted ePHI"],
      ["164.312(e)(2)(ii)", "Encryption of transmitted ePHI"],
    ]),
  ],
};
