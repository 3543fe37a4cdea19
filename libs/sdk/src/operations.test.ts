import { describe, expect, it } from "@jest/globals";
import { fillPath } from "./operations.js";

describe("fillPath", () => {
  it("fills each parameter, encoded, and refuses a path whose parameter has no value", () => {
    expect(
      fillPath("/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
        webhook_id: "wh_1",
        delivery_id: "a/b c",
      }),
    ).toBe("/v1/webhooks/wh_1/deliveries/a%2Fb%20c/redeliver");
    expect(fillPath("/v1/health", undefined)).toBe("/v1/health");
    expect(() => fillPath("/v1/evaluations/{evaluation_id}", {})).toThrow("no value for {evaluation_id}");
  });
});
