// The MCP tool server, black-box: the official SDK's client connects to `verdict mcp` over stdio
// and to services/mcp over Streamable HTTP, lists the tools and calls them against a running
// Verdict, as an AI assistant would.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { VerdictClient } from "@verdict/sdk";
import { CLI, isolatedHome } from "../support/cli.js";
import { ROOT } from "../support/paths.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const TOOLS = [
  "evaluate_files",
  "get_evaluation",
  "list_evaluations",
  "list_policies",
  "get_policy",
  "compliance_overview",
  "get_framework",
  "get_report",
  "generate_evidence",
];

let v: Verdict;
let sdk: VerdictClient;

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[] };
const text = (r: unknown) => (r as ToolResult).content.map((c) => c.text ?? "").join("\n");
/** The JSON a tool returns after its one-paragraph summary. */
const data = (r: unknown) => JSON.parse(text(r).slice(text(r).indexOf("\n\n{") + 2));

beforeAll(async () => {
  v = await startVerdict();
  sdk = new VerdictClient({ baseUrl: v.url, apiKey: v.bootstrapKey });
});
afterAll(async () => v.destroy());

describe("verdict mcp (stdio)", () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "verdict-e2e", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      env: { ...isolatedHome(), PATH: process.env.PATH ?? "", VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey },
      stderr: "pipe",
    });
    await client.connect(transport);
  });
  afterAll(async () => client.close());

  it("lists Verdict's tools with JSON-schema inputs and descriptions", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
    }
    const evidence = tools.find((t) => t.name === "generate_evidence")!;
    expect(Object.keys(evidence.inputSchema.properties ?? {}).sort()).toEqual(["date_range", "format", "framework"]);
    expect(evidence.inputSchema.properties!.date_range).toMatchObject({ type: "string", pattern: expect.any(String) });
    expect(evidence.inputSchema.required).toEqual(["framework"]);
    expect(client.getServerVersion()).toMatchObject({ name: "verdict" });
  });

  it("evaluates files and reports violations with redacted snippets", async () => {
    const r = await client.callTool({
      name: "evaluate_files",
      arguments: {
        repository: "acme/assistant",
        ref: "feature/ai",
        files: [
          { path: "src/config.js", content: `const key = "${AWS_KEY}";\n` },
          { path: "README.md", content: "# ok\n" },
        ],
      },
    });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toMatch(/^Evaluation eval_\S+ FAILED: 1 errors, 0 warnings in 2 files\./);
    expect(text(r)).toContain("src/config.js:1:14 error aws-credentials");
    expect(text(r)).not.toContain(AWS_KEY);
    const e = data(r);
    const got = await client.callTool({ name: "get_evaluation", arguments: { evaluation_id: e.id } });
    expect(data(got)).toMatchObject({ id: e.id, passed: false, repository: "acme/assistant" });
    const listed = data(
      await client.callTool({ name: "list_evaluations", arguments: { repository: "acme/assistant" } }),
    );
    expect(listed.evaluations.map((x: { id: string }) => x.id)).toEqual([e.id]);
  });

  it("reads policies and compliance coverage", async () => {
    const policies = data(await client.callTool({ name: "list_policies", arguments: { category: "secrets" } }));
    expect(policies.policies.length).toBeGreaterThan(5);
    expect(policies.policies.every((p: { category: string }) => p.category === "secrets")).toBe(true);
    expect(
      data(await client.callTool({ name: "get_policy", arguments: { policy_id: "aws-credentials" } })),
    ).toMatchObject({ id: "aws-credentials", patterns: expect.any(Array) });
    const overview = data(await client.callTool({ name: "compliance_overview", arguments: {} }));
    expect(overview.frameworks.map((f: { id: string }) => f.id)).toEqual(
      expect.arrayContaining(["nist-ssdf", "soc2", "owasp-asvs"]),
    );
    const ssdf = await client.callTool({ name: "get_framework", arguments: { framework_id: "nist-ssdf" } });
    expect(text(ssdf)).toMatch(/^NIST Secure Software Development Framework .*: \d+% covered/);
  });

  it("generate_evidence waits for the report and returns its status and a working download link", async () => {
    const r = await client.callTool({
      name: "generate_evidence",
      arguments: { framework: "soc2", format: "oscal", date_range: "30d" },
    });
    expect(r.isError).toBeFalsy();
    const report = data(r);
    expect(report).toMatchObject({
      report_id: expect.stringMatching(/^report_/),
      status: "completed",
      format: "oscal",
      frameworks: ["soc2"],
      download_url: expect.stringContaining("/download?"),
    });
    expect(text(r)).toMatch(/^Report report_\S+ is ready: http/);
    const file = await fetch(report.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("application/zip");
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
  });

  it("answers bad arguments and API errors as tool errors the model can read", async () => {
    const bad = await client
      .callTool({ name: "generate_evidence", arguments: { framework: "soc2", date_range: "3 months" } })
      .catch((err: Error) => ({ isError: true, content: [{ type: "text", text: err.message }] }));
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/date_range/);
    const unknown = await client.callTool({ name: "get_framework", arguments: { framework_id: "no-such-framework" } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^Verdict answered 404 RESOURCE_NOT_FOUND/);
  });
});

describe("services/mcp (Streamable HTTP)", () => {
  let proc: ChildProcess;
  let url: URL;
  let out = "";

  beforeAll(async () => {
    proc = spawn(process.execPath, [join(ROOT, "services/mcp/dist/bin.js")], {
      env: {
        PATH: process.env.PATH ?? "",
        VERDICT_MCP_HOST: "127.0.0.1",
        VERDICT_MCP_PORT: "0",
        VERDICT_API_URL: v.url,
        VERDICT_LOG_LEVEL: "info",
        VERDICT_DATA_DIR: v.dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const port = await new Promise<number>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`mcp did not start:\n${out}`)), 20_000);
      proc.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.includes('"mcp ready"'));
        if (line) {
          clearTimeout(timer);
          res(JSON.parse(line).http_port);
        }
      });
    });
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(async () => {
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  });

  const connect = async (key?: string) => {
    const client = new Client({ name: "verdict-e2e-http", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(
        url,
        key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {},
      ),
    );
    return client;
  };

  it("opens neither a bus nor a store: it only calls the REST API", () => {
    expect(out).toContain('"mcp ready"');
    expect(out).not.toMatch(/"msg":"bus: /);
    expect(out).not.toMatch(/"msg":"store: /);
  });

  it("serves the same tools with the caller's own API key", async () => {
    const client = await connect(v.bootstrapKey);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      const r = await client.callTool({
        name: "evaluate_files",
        arguments: { repository: "acme/http", files: [{ path: "a.js", content: "const x = 1;\n" }] },
      });
      expect(text(r)).toMatch(/^Evaluation eval_\S+ PASSED/);
      expect(data(r)).toMatchObject({ repository: "acme/http", ref: "main", passed: true });
      const evidence = data(
        await client.callTool({
          name: "generate_evidence",
          arguments: { framework: "nist-ssdf", format: "pdf", date_range: "7d" },
        }),
      );
      expect(evidence).toMatchObject({
        status: "completed",
        format: "pdf",
        download_url: expect.stringContaining("/download?"),
      });
    } finally {
      await client.close();
    }
    expect(out).not.toContain(v.bootstrapKey);
  });

  it("refuses callers without a valid key (401) and applies the key's scopes", async () => {
    await expect(connect()).rejects.toThrow(/401|Authorization/);
    const noAuth = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noAuth.status).toBe(401);
    expect(noAuth.headers.get("www-authenticate")).toContain("Bearer");

    const narrow = await sdk.createApiKey({ name: "assistant", scopes: ["read:evaluations"], expiration: "24h" });
    const client = await connect(narrow.key);
    try {
      const r = await client.callTool({ name: "compliance_overview", arguments: {} });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^Verdict answered 403 AUTH_INSUFFICIENT_SCOPE/);
    } finally {
      await client.close();
    }
  });
});
