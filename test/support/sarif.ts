// SARIF 2.1.0 validation for the black-box suites: OASIS's final JSON schema (2.1.0-rtm.5, copied
// from Microsoft's sarif-js-sdk, @microsoft/jest-sarif, into schemas/) with ajv's draft-04 support. Its
// `language` pattern is not valid in Unicode mode, hence unicodeRegExp: false.
import { readFileSync } from "node:fs";
import Ajv04 from "ajv-draft-04";
import addFormats from "ajv-formats";

const schema = JSON.parse(readFileSync(new URL("./schemas/sarif-2.1.0-rtm.5.json", import.meta.url), "utf8"));

/** null when `log` is a valid SARIF 2.1.0 log, else the schema errors. */
export function sarifErrors(log: unknown): unknown[] | null {
  const ajv = new Ajv04.default({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats.default(ajv as never);
  const validate = ajv.compile(schema);
  return validate(log) ? null : (validate.errors ?? []);
}
