// docs/configuration.md is the operator's reference, generated from the configuration schemas:
// it is what `pnpm docs:config` writes now (so never stale), its all-in-one table names exactly
// the variables the all-in-one process reads, and every variable a standalone process reads is
// documented.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { complianceProcessConfig } from "@verdict/compliance";
import { evaluationProcessConfig } from "@verdict/evaluation";
import { gatewayProcessConfig } from "@verdict/gateway";
import { identityProcessConfig } from "@verdict/identity";
import { mcpConfig } from "@verdict/mcp";
import { policyProcessConfig } from "@verdict/policy";
import { variableDocs } from "@verdict/runtime";
import { webhookProcessConfig } from "@verdict/webhooks";
import { configSchema } from "./config.js";
import { configurationDoc } from "./configDoc.js";

const doc = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");
const start = doc.indexOf("\n## All-in-one\n");
const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
const rows = section.split("\n").filter((line) => line.startsWith("| `"));
const named = (text: string) => new Set([...text.matchAll(/`(VERDICT_[A-Z0-9_]+)`/g)].map((m) => m[1]!));
const processes = {
  identity: identityProcessConfig,
  policy: policyProcessConfig,
  evaluation: evaluationProcessConfig,
  compliance: complianceProcessConfig,
  webhooks: webhookProcessConfig,
  gateway: gatewayProcessConfig,
  mcp: mcpConfig,
};

describe("docs/configuration.md", () => {
  it("is what `pnpm docs:config` generates from the schemas now", () => {
    expect(doc).toBe(configurationDoc());
  });

  it("has a row for each variable the all-in-one process reads, and no other", () => {
    expect(start).toBeGreaterThan(0);
    const firstColumn = new Set(
      rows.map((row) => /^\| `(VERDICT_[A-Z0-9_]+)`/.exec(row)?.[1]).filter((v): v is string => v !== undefined),
    );
    const inTable = named(rows.join("\n"));
    const read = Object.keys(configSchema.shape);
    expect(read.filter((v) => !inTable.has(v))).toEqual([]);
    expect([...firstColumn].filter((v) => !read.includes(v))).toEqual([]);
  });

  it("documents every variable each standalone process reads", () => {
    const documented = named(doc);
    for (const [name, schema] of Object.entries(processes)) {
      expect({ name, undocumented: Object.keys(schema.shape).filter((v) => !documented.has(v)) }).toEqual({
        name,
        undocumented: [],
      });
    }
  });

  it("documents no variable that no process reads", () => {
    const read = new Set([configSchema, ...Object.values(processes)].flatMap((schema) => Object.keys(schema.shape)));
    expect([...variableDocs().keys()].filter((v) => !read.has(v))).toEqual([]);
  });
});
