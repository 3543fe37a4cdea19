import { describe, expect, it } from "@jest/globals";
import { commandOf, replyOf, type Command, type Reply } from "./commands.js";

describe("commandOf", () => {
  it("renames every top-level field to camelCase and keeps values, nested messages as they are", () => {
    const request = {
      organization_id: "org_1",
      policy_id: "p",
      enabled: false,
      known_version: "",
      audit: { request_id: "req_1" },
    };
    const command: Command<typeof request> = commandOf(request);
    expect(command).toStrictEqual({
      organizationId: "org_1",
      policyId: "p",
      enabled: false,
      knownVersion: "",
      audit: { request_id: "req_1" },
    });
    // The type names the same fields: a use case's command that asks for one the request lacks fails tsc.
    const typed: { organizationId: string; knownVersion: string } = command;
    expect(typed.knownVersion).toBe("");
  });

  it("leaves out a field named unset-when-empty when it is empty, and keeps it when it is not", () => {
    const request = { organization_id: "org_1", issuer_user_id: "", environment: "test" };
    expect(commandOf(request, ["issuer_user_id", "environment"])).toStrictEqual({
      organizationId: "org_1",
      environment: "test",
    });
    expect(commandOf(request)).toStrictEqual({ organizationId: "org_1", issuerUserId: "", environment: "test" });
  });

  it("renames a field with a digit after the underscore", () => {
    expect(commandOf({ sha_256: "x", x_1_y: 1 })).toStrictEqual({ sha256: "x", x1Y: 1 });
  });
});

describe("replyOf", () => {
  it("renames every top-level field to snake_case and keeps values", () => {
    const result = { sessionsEnded: 2, deliveryId: "", outcome: "accepted" };
    const reply: Reply<typeof result> = replyOf(result);
    expect(reply).toStrictEqual({ sessions_ended: 2, delivery_id: "", outcome: "accepted" });
  });
});
