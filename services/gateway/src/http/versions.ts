// Optimistic concurrency on the REST side: the version a change must still find, from an
// If-Match header (`W/"3"`, `"3"`, `3`; `*` = any) or a `version` field in the body.
import { errors } from "@verdict/kit";

const IF_MATCH = /^(?:W\/)?"?([0-9]{1,9})"?$/;

/** The ETag a resource at `version` carries (weak: it names a version, not bytes). */
export const etagOf = (version: number): string => `W/"${version}"`;

/** The version the caller expects, or undefined when it named none; 400 when malformed or contradictory. */
export function expectedVersion(ifMatch: string | undefined, bodyVersion?: number): number | undefined {
  let fromHeader: number | undefined;
  const header = ifMatch?.trim();
  if (header && header !== "*") {
    const m = IF_MATCH.exec(header);
    if (!m)
      throw errors.validation([
        {
          field: "If-Match",
          code: "INVALID_FORMAT",
          message: 'If-Match must name one version, as the ETag gave it (W/"3"), or be *',
        },
      ]);
    fromHeader = Number(m[1]);
  }
  if (fromHeader !== undefined && bodyVersion !== undefined && fromHeader !== bodyVersion)
    throw errors.validation([
      {
        field: "version",
        code: "INVALID_FORMAT",
        message: `version ${bodyVersion} contradicts If-Match (${header}): send one of them`,
      },
    ]);
  return fromHeader ?? bodyVersion;
}
