// docs/configuration.md's table is the operator's reference: it names exactly the variables
// the all-in-one process reads, and every variable a standalone process reads is documented.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { complianceProcessConfig } from "@verdict/compliance";
import { evaluationProcessConfig } from "@verdict/evaluation";
import { gatewayProcessConfig } from "@verdict/gateway";
import { identityProcessConfig } from "@verdict/identity";
import { mcpConfig } from "@verdict/mcp";
import { policyProcessConfig } from "@verdict/policy";
import { webhookProcessConfig } from "@verdict/webhooks";
import { configSchema } from "./config.js";

const docs = new URL("../../../docs/", import.meta.url);
const section = readFileSync(new URL("configuration.md", docs), "utf8");
const everyDoc = readdirSync(docs)
  .filter((f) => f.endsWith(".md"))
  .map((f) => readFileSync(new URL(f, docs), "utf8"))
  .join("\n");
const rows = section.split("\n").filter((line) => line.startsWith("| `"));
const named = (text: string) => new Set([...text.matchAll(/`(VERDICT_[A-Z0-9_]+)`/g)].map((m) => m[1]!));

describe("docs/configuration.md", () => {
  it("has a row for each variable the all-in-one process reads, and no other", () => {
    const firstColumn = new Set(
      rows.map((row) => /^\| `(VERDICT_[A-Z0-9_]+)`/.exec(row)?.[1]).filter((v): v is string => v !== undefined),
    );
    const inTable = named(rows.join("\n"));
    const read = Object.keys(configSchema.shape);
    expect(read.filter((v) => !inTable.has(v))).toEqual([]);
    expect([...firstColumn].filter((v) => !read.includes(v))).toEqual([]);
  });

  it("documents every variable each standalone process reads", () => {
    const documented = named(everyDoc);
    const processes = {
      identity: identityProcessConfig,
      policy: policyProcessConfig,
      evaluation: evaluationProcessConfig,
      compliance: complianceProcessConfig,
      webhooks: webhookProcessConfig,
      gateway: gatewayProcessConfig,
      mcp: mcpConfig,
    };
    for (const [name, schema] of Object.entries(processes)) {
      expect({ name, undocumented: Object.keys(schema.shape).filter((v) => !documented.has(v)) }).toEqual({
        name,
        undocumented: [],
      });
    }
  });
});
