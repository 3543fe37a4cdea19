// OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, one request yields one trace that runs
// from the gateway's HTTP span through the gRPC client and server spans of each service it
// touches. A small OTLP/HTTP receiver stands in for the collector.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

const spans: Span[] = [];
let receiver: Server;
let v: Verdict;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url === "/v1/traces" && (req.headers["content-type"] ?? "").includes("json")) {
        const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
        for (const rs of payload.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const port = (receiver.address() as AddressInfo).port;
  v = await startVerdict({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  });
});
afterAll(async () => {
  await v.destroy();
  await new Promise((r) => receiver.close(r));
});

describe("tracing", () => {
  it("links the gateway's span to the evaluation and policy services' spans in one trace", async () => {
    const api = new Api(v.url, v.bootstrapKey);
    const res = await api.post("/v1/evaluations", {
      repository: "acme/traced",
      ref: "main",
      files: [{ path: "a", content: "b" }],
    });
    expect(res.status).toBe(201);
    const find = (name: string, kind: number) => spans.find((s) => s.name === name && s.kind === kind);
    // Each thread's exporter sends its spans in batches of its own: wait for all three, the
    // evaluation server's span (it ends last) may come in a later batch than the others.
    const deadline = Date.now() + 15_000;
    const names = [
      "POST /v1/evaluations",
      "verdict.evaluation.v1.EvaluationService/createEvaluation",
      "verdict.policy.v1.PolicyService/resolvePolicies",
    ];
    while (Date.now() < deadline && !names.every((name) => find(name, 2))) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const http = find("POST /v1/evaluations", 2)!;
    const evalServer = find("verdict.evaluation.v1.EvaluationService/createEvaluation", 2)!;
    const policyServer = find("verdict.policy.v1.PolicyService/resolvePolicies", 2)!;
    expect(http).toBeDefined();
    expect(evalServer).toBeDefined();
    expect(policyServer).toBeDefined();
    expect(evalServer.traceId).toBe(http.traceId);
    expect(policyServer.traceId).toBe(http.traceId);
    // gateway HTTP span -> gRPC client span -> evaluation server span
    const evalClient = spans.find((s) => s.spanId === evalServer.parentSpanId)!;
    expect(evalClient).toMatchObject({
      kind: 3,
      name: "verdict.evaluation.v1.EvaluationService/createEvaluation",
      parentSpanId: http.spanId,
    });
  });
});
