import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { BUILTIN_POLICIES } from "@verdict/policy";
import { CATALOGS, catalogById, FRAMEWORK_IDS, resolveControlRef } from "./index.js";

const REGULATIONS = ["pci-dss", "hipaa", "gdpr", "nist-800-53", "fedramp-moderate"];

describe("built-in framework catalogs", () => {
  it("are 24, with unique slug ids, first-class frameworks first", () => {
    const ids = CATALOGS.map((c) => c.id);
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
    expect(ids.slice(0, 3)).toEqual(["nist-ssdf", "soc2", "owasp-asvs"]);
    expect(FRAMEWORK_IDS).toEqual(ids);
  });

  it("each have a name, version, official source and uniquely identified, titled controls", () => {
    for (const c of CATALOGS) {
      expect(c.name.trim()).not.toBe("");
      expect(c.version.trim()).not.toBe("");
      expect(["framework", "regulation"]).toContain(c.kind);
      expect(new URL(c.source_url).protocol).toBe("https:");
      expect(c.controls.length).toBeGreaterThan(0);
      const ids = c.controls.map((k) => k.id);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
      for (const k of c.controls) {
        // Ids must fit the `frameworks` reference format policies use.
        expect(`${c.id}:${k.id}`).toMatch(/^[a-z0-9-]+:[A-Za-z0-9._()-]+$/);
        expect(k.title.trim()).not.toBe("");
        expect(k.title.length).toBeLessThanOrEqual(120);
      }
    }
  });

  it("are found by id", () => {
    expect(catalogById("soc2")?.name).toMatch(/SOC 2/);
    expect(catalogById("nope")).toBeUndefined();
    expect(resolveControlRef("nist-ssdf:PW.5.1")?.control.group).toBe("PW");
    expect(resolveControlRef("nist-ssdf:PW.99.1")).toBeUndefined();
    expect(resolveControlRef("soc2")).toBeUndefined();
  });

  it("resolve every framework reference of every built-in policy", () => {
    const unresolved = BUILTIN_POLICIES.flatMap((p) =>
      p.frameworks.filter((ref) => !resolveControlRef(ref)).map((ref) => `${p.id}: ${ref}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("map every built-in policy to controls of each first-class framework", () => {
    const missing = BUILTIN_POLICIES.flatMap((p) =>
      ["nist-ssdf", "soc2", "owasp-asvs"]
        .filter((f) => !p.frameworks.some((ref) => ref.startsWith(`${f}:`)))
        .map((f) => `${p.id}: ${f}`),
    );
    expect(missing).toEqual([]);
  });

  it("include the required regulations", () => {
    for (const id of REGULATIONS) expect(catalogById(id)?.kind).toBe("regulation");
  });

  it("keep FedRAMP Moderate a subset of NIST SP 800-53 with the same ids and titles", () => {
    const nist = new Map(catalogById("nist-800-53")!.controls.map((c) => [c.id, c.title]));
    for (const c of catalogById("fedramp-moderate")!.controls) expect(nist.get(c.id)).toBe(c.title);
  });

  it("are referenced without duplicates by each built-in policy", () => {
    const duplicated = BUILTIN_POLICIES.flatMap((p) =>
      p.frameworks.filter((ref, i) => p.frameworks.indexOf(ref) !== i).map((ref) => `${p.id}: ${ref}`),
    );
    expect(duplicated).toEqual([]);
  });

  it("have at least one control covered by a built-in policy", () => {
    const covered = new Set(BUILTIN_POLICIES.flatMap((p) => p.frameworks));
    const uncovered = CATALOGS.filter((c) => !c.controls.some((k) => covered.has(`${c.id}:${k.id}`))).map((c) => c.id);
    expect(uncovered).toEqual([]);
  });

  it("are listed in docs/compliance.md's catalog table as they are", () => {
    const readme = readFileSync(new URL("../../../../../docs/compliance.md", import.meta.url), "utf8");
    const header = "| Id | Framework | Version | Kind | Controls |\n|----|-----------|---------|------|----------|\n";
    const start = readme.indexOf(header);
    expect(start).toBeGreaterThan(0);
    const rows = readme.slice(start + header.length).split("\n");
    const table = rows.slice(
      0,
      rows.findIndex((line) => !line.startsWith("|")),
    );
    expect(table).toEqual(
      CATALOGS.map((c) => `| \`${c.id}\` | ${c.name} | ${c.version} | ${c.kind} | ${c.controls.length} |`),
    );
  });
});
