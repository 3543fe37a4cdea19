// Each service as its own process (services/<name>/dist/bin.js), as scripts/stack.sh, the
// image and the chart run them, here on the embedded store and each process's in-process bus (the
// distributed suites add Kafka and MongoDB): every one starts from its variables, logs its ready
// line with its ports, serves gRPC health, reflection and metrics there, answers a call through
// the gateway with the operator key identity generated and printed, and exits 0 on SIGTERM.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { grpcHealth, grpcListServices } from "../support/grpc.js";
import { startStack, stopStack, type Stack } from "../support/stack.js";

const GRPC_SERVICES = ["identity", "policy", "evaluation", "compliance", "webhooks", "integrations"] as const;
const dataDir = mkdtempSync(join(tmpdir(), "verdict-standalone-"));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack(dataDir, {});
});
afterAll(async () => {
  if (stack) await stopStack(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the services as their own processes", () => {
  it.each(GRPC_SERVICES)(
    "%s serves gRPC health, reflection and metrics on the ports of its ready line",
    async (name) => {
      const { ready } = stack.services[name];
      expect(ready.grpc_port).toBeGreaterThan(0);
      // Reflection lists its own service (verdict.<name>.v1.…), and health checking answers for it.
      const own = (await grpcListServices(ready.grpc_port!)).filter((s) => s.startsWith(`verdict.${name}.v1.`));
      expect(own).toHaveLength(1);
      expect(await grpcHealth(ready.grpc_port!, own[0]!)).toBe("SERVING");
      const metrics = await fetch(`http://127.0.0.1:${ready.metrics_port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("# TYPE ");
    },
  );

  it("identity prints the operator key it generated, and the gateway answers with it", async () => {
    const key = /vdt_key_prod_\w+/.exec(stack.services.identity.output())?.[0];
    expect(key).toBeDefined();
    const api = new Api(`http://127.0.0.1:${stack.services.gateway.ready.http_port}`, key);
    const res = await api.get("/v1/policies");
    expect(res.status).toBe(200);
    expect(res.body.policies.length).toBeGreaterThan(0);
  });

  it("each stops on SIGTERM with exit code 0 after closing its adapters", async () => {
    const codes = await Promise.all(stack.all.map((p) => p.stop()));
    expect(codes).toEqual(stack.all.map(() => 0));
    for (const p of stack.all) expect(p.output()).toContain('"msg":"stopped"');
  });
});
