// gRPC handlers of SCIM: the tokens an identity provider provisions with, and its requests (the
// gateway forwards them). Map proto <-> use cases, nothing else.
import { commandOf, messageFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Expiration } from "../domain/apiKey.js";
import type { ScimTokenRecord } from "../repos/scimRepo.js";
import { handleScim } from "../usecases/scim/handleScim.js";
import { createScimToken } from "../usecases/scim/createScimToken.js";
import { deleteScimToken } from "../usecases/scim/deleteScimToken.js";
import { listScimTokens } from "../usecases/scim/listScimTokens.js";
import type { IdentityDeps } from "../deps.js";
import { fromActor, type IdentityHandlers } from "./mapping.js";

function toScimToken(t: ScimTokenRecord): identityV1.ScimToken {
  return messageFields(t, ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"]);
}

export function scimHandlers(
  deps: IdentityDeps,
): IdentityHandlers<"listScimTokens" | "createScimToken" | "deleteScimToken" | "handleScim"> {
  return {
    async listScimTokens(req) {
      return { scim_tokens: (await listScimTokens(deps, commandOf(req))).map(toScimToken) };
    },
    async createScimToken(req) {
      const { record, token } = await createScimToken(deps, {
        ...commandOf(req),
        // None named: never (the gateway's schema checked a named one).
        expiration: (req.expiration || "never") as Expiration,
        actor: fromActor(req.actor),
      });
      return { scim_token: toScimToken(record), token };
    },
    async deleteScimToken(req) {
      await deleteScimToken(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return {};
    },
    async handleScim(req) {
      const res = await handleScim(deps, commandOf(req));
      return {
        status: res.status,
        body_json: res.body === undefined ? "" : JSON.stringify(res.body),
        etag: res.etag ?? "",
        location: res.location ?? "",
      };
    },
  };
}
