// The policy service's repositories over real gRPC: connect, list, disconnect, validation,
// tenancy, and the last evaluation each one saw (from evaluation.completed events).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TOPICS } from "@verdict/bus";
import { fieldError, startPolicyHarness, type PolicyHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";

const ORG_B = "org_b";

let h: PolicyHarness;

beforeAll(async () => {
  h = await startPolicyHarness();
});
afterAll(() => h.stop());

describe("repositories", () => {
  const ORG = "org_repos";

  it("connects, lists by name, counts and disconnects", async () => {
    const { repository } = await h.client.connectRepository({
      organization_id: ORG,
      provider: "github",
      name: "acme/web",
    });
    expect(repository).toMatchObject({ name: "acme/web", provider: "github", default_branch: "main" });
    expect(repository!.id).toMatch(/^repo_[0-9a-z]{26}$/);
    expect(repository!.last_evaluation).toBeUndefined();
    await h.client.connectRepository({
      organization_id: ORG,
      provider: "github",
      name: "acme/api",
      default_branch: "trunk",
    });

    const { repositories } = await h.client.listRepositories({ organization_id: ORG });
    expect(repositories.map((r) => `${r.name}@${r.default_branch}`)).toEqual(["acme/api@trunk", "acme/web@main"]);
    expect((await h.client.countRepositories({ organization_id: ORG })).count).toBe(2);

    await h.client.disconnectRepository({ organization_id: ORG, repository_id: repository!.id });
    expect((await h.client.countRepositories({ organization_id: ORG })).count).toBe(1);
    await expect(
      h.client.disconnectRepository({ organization_id: ORG, repository_id: repository!.id }),
    ).rejects.toMatchObject({
      kind: "not_found",
      details: { resource_type: "repository", resource_id: repository!.id },
    });
  });

  it("renames a repository its provider renamed or transferred; refuses a taken or bad name, another organization's", async () => {
    const { repository } = await h.client.connectRepository({
      organization_id: ORG,
      provider: "gitlab",
      name: "acme/old",
    });
    await h.client.connectRepository({ organization_id: ORG, provider: "gitlab", name: "acme/taken" });
    const { repository: renamed } = await h.client.renameRepository({
      organization_id: ORG,
      repository_id: repository!.id,
      name: "finance/new",
    });
    expect(renamed).toMatchObject({ id: repository!.id, name: "finance/new", provider: "gitlab" });
    const names = (await h.client.listRepositories({ organization_id: ORG })).repositories.map((r) => r.name);
    expect(names).toContain("finance/new");
    expect(names).not.toContain("acme/old");
    await expect(
      h.client.renameRepository({ organization_id: ORG, repository_id: repository!.id, name: "acme/taken" }),
    ).rejects.toMatchObject({ kind: "conflict" });
    await expect(
      h.client.renameRepository({ organization_id: ORG, repository_id: repository!.id, name: "no-slash" }),
    ).rejects.toMatchObject({ ...fieldError("name", "INVALID_FORMAT") });
    await expect(
      h.client.renameRepository({ organization_id: ORG_B, repository_id: repository!.id, name: "x/y" }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });

  it("answers 409 when the same repository is connected twice", async () => {
    await h.client.connectRepository({ organization_id: ORG, provider: "github", name: "acme/dupe" });
    await expect(
      h.client.connectRepository({ organization_id: ORG, provider: "github", name: "acme/dupe" }),
    ).rejects.toMatchObject({
      kind: "conflict",
      details: { resource_type: "repository", resource_id: "acme/dupe" },
    });
    // Same name on another provider, or in another organization, is a different repository.
    await h.client.connectRepository({ organization_id: ORG, provider: "gitlab", name: "acme/dupe" });
    await h.client.connectRepository({ organization_id: ORG_B, provider: "github", name: "acme/dupe" });
  });

  it("validates provider and name", async () => {
    await expect(
      h.client.connectRepository({ organization_id: ORG, provider: "github", name: "no-slash" }),
    ).rejects.toMatchObject({
      kind: "validation",
      ...fieldError("name", "INVALID_FORMAT"),
    });
    await expect(
      h.client.connectRepository({ organization_id: ORG, provider: "svn", name: "a/b" }),
    ).rejects.toMatchObject({
      kind: "validation",
      ...fieldError("provider", "INVALID_ENUM"),
    });
  });

  it("keeps organizations apart", async () => {
    const { repository } = await h.client.connectRepository({
      organization_id: ORG,
      provider: "github",
      name: "acme/private",
    });
    await expect(
      h.client.disconnectRepository({ organization_id: ORG_B, repository_id: repository!.id }),
    ).rejects.toMatchObject({ kind: "not_found" });
    const names = (await h.client.listRepositories({ organization_id: ORG_B })).repositories.map((r) => r.name);
    expect(names).not.toContain("acme/private");
  });

  it("records the last evaluation from evaluation.completed events, only moving forward", async () => {
    const { repository } = await h.client.connectRepository({
      organization_id: ORG,
      provider: "github",
      name: "acme/evaluated",
    });
    const publish = (organization_id: string, completed_at: string) =>
      h.bus.publish(TOPICS.evaluationCompleted, {
        source: "/evaluation",
        data: {
          organization_id,
          evaluation_id: "eval_x",
          repository: "acme/evaluated",
          ref: "main",
          passed: true,
          completed_at,
          summary: {},
        },
      });
    const lastEvaluation = async () =>
      (await h.client.listRepositories({ organization_id: ORG })).repositories.find((r) => r.id === repository!.id)!
        .last_evaluation;

    await publish(ORG, "2026-03-01T10:00:00.000Z");
    await eventually(async () => expect(await lastEvaluation()).toBe("2026-03-01T10:00:00.000Z"));
    // A late (older) event and another organization's event change nothing.
    await publish(ORG, "2026-02-01T10:00:00.000Z");
    await publish(ORG_B, "2026-04-01T10:00:00.000Z");
    await publish(ORG, "2026-03-02T10:00:00.000Z");
    await eventually(async () => expect(await lastEvaluation()).toBe("2026-03-02T10:00:00.000Z"));
    await publish(ORG, "2026-03-02T10:00:00.000Z");
    await new Promise((r) => setTimeout(r, 50));
    expect(await lastEvaluation()).toBe("2026-03-02T10:00:00.000Z");
  });
});
