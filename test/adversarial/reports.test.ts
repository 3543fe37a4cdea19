// A report whose process is killed while it generates must not stay "generating" forever (nor
// keep using up the hourly report quota): the next start fails it, with a reason.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { startVerdict } from "../support/server.js";

const dataDir = mkdtempSync(join(tmpdir(), "verdict-adv-reports-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("a report killed during generation", () => {
  it("is failed with a reason on the next start, and the organization can request reports again", async () => {
    const key = makeKey("prod");
    const first = await startVerdict({ dataDir, bootstrapKey: key });
    let org, created, frameworks: string[];
    try {
      const api1 = new Api(first.url, key);
      org = await api1.post("/v1/organizations", {
        name: "Killed Mid-Report",
        rate_limits: { reports_create_per_hour: 1 },
      });
      expect(org.status).toBe(201);
      const orgApi1 = api1.withKey(org.body.api_key.key);
      const overview = (await orgApi1.get("/v1/compliance/overview")).body;
      frameworks = [...overview.frameworks, ...overview.regulations].map((f: { id: string }) => f.id);
      expect(frameworks.length).toBeGreaterThan(20);
      // Every framework and regulation as a PDF: long enough to be under way when the process dies.
      created = await orgApi1.post("/v1/compliance/reports", { frameworks, format: "pdf", date_range: "30d" });
      expect(created.status).toBe(202);
    } finally {
      first.proc.kill("SIGKILL");
      await first.stop();
    }

    const second = await startVerdict({ dataDir, bootstrapKey: key });
    try {
      const orgApi = new Api(second.url, org.body.api_key.key);
      const report = await orgApi.get(`/v1/compliance/reports/${created.body.report_id}`);
      expect(report.status).toBe(200);
      // (If the kill came after generation finished, there is nothing left to test: say so.)
      expect({ status: report.body.status, reason: report.body.failure_reason }).toEqual({
        status: "failed",
        reason: "Generation was interrupted: Verdict stopped before the report was finished; request it again",
      });
      expect(report.body.download_url).toBeNull();
      expect(second.output()).toContain("failed the reports an earlier process left generating");
      // The quota of one report an hour is available again.
      const again = await orgApi.post("/v1/compliance/reports", {
        frameworks: [frameworks[0]],
        format: "oscal",
        date_range: "30d",
      });
      expect(again.status).toBe(202);
      let done;
      for (let i = 0; i < 200; i++) {
        done = await orgApi.get(`/v1/compliance/reports/${again.body.report_id}`);
        if (done.body.status !== "generating") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(done!.body.status).toBe("completed");
    } finally {
      await second.stop();
    }
  });
});
