// SCIM's own error (RFC 7644 §3.12): answered on /scim/v2 as
// {schemas: [urn:ietf:params:scim:api:messages:2.0:Error], status, scimType, detail}.
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(detail);
  }

  toBody(): Record<string, unknown> {
    return {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

export const scimErrors = {
  invalidFilter: (detail: string) => new ScimError(400, "invalidFilter", detail),
  invalidPath: (detail: string) => new ScimError(400, "invalidPath", detail),
  invalidValue: (detail: string) => new ScimError(400, "invalidValue", detail),
  invalidSyntax: (detail: string) => new ScimError(400, "invalidSyntax", detail),
  noTarget: (detail: string) => new ScimError(400, "noTarget", detail),
  mutability: (detail: string) => new ScimError(400, "mutability", detail),
  uniqueness: (detail: string) => new ScimError(409, "uniqueness", detail),
  notFound: (what: string, id: string) => new ScimError(404, undefined, `${what} ${id} not found`),
  preconditionFailed: () =>
    new ScimError(412, undefined, "The resource changed since the version in If-Match: read it again"),
  unauthorized: (detail: string) => new ScimError(401, undefined, detail),
  forbidden: (detail: string) => new ScimError(403, undefined, detail),
  methodNotAllowed: (detail: string) => new ScimError(405, undefined, detail),
};
