import { describe, expect, it } from "@jest/globals";
import { checkConnectRepository, nestedNameProblem } from "./repository.js";

const nameProblems = (provider: string, name: string) =>
  checkConnectRepository({ provider, name }).filter((p) => p.field === "name");

describe("checkConnectRepository names", () => {
  it("takes a GitLab project's full path in nested subgroups, up to GitLab's 20 levels", () => {
    expect(nameProblems("gitlab", "acme/payments")).toEqual([]);
    expect(nameProblems("gitlab", "acme/platform/api")).toEqual([]);
    expect(nameProblems("gitlab", ["top", ...Array.from({ length: 20 }, (_, i) => `g${i}`), "p"].join("/"))).toEqual(
      [],
    );
    for (const bad of [
      "acme",
      "acme//api",
      "acme/platform/",
      ["t", ...Array.from({ length: 21 }, () => "g"), "p"].join("/"),
    ])
      expect(nameProblems("gitlab", bad)).toEqual([expect.objectContaining({ code: "INVALID_FORMAT" })]);
  });

  it("keeps other providers' names to <owner>/<repo>: a path in subgroups is a rule between fields (422), not a format error", () => {
    for (const provider of ["github", "gitea", "azure-devops"]) {
      expect(nameProblems(provider, "acme/payments")).toEqual([]);
      expect(nestedNameProblem({ provider, name: "acme/payments" })).toBeNull();
      // The schema's form, so not a 400 ...
      expect(nameProblems(provider, "acme/platform/api")).toEqual([]);
      // ... but only GitLab nests projects.
      expect(nestedNameProblem({ provider, name: "acme/platform/api" })).toMatchObject({
        field: "name",
        code: "INVALID_FORMAT",
      });
      expect(nameProblems(provider, "acme")).toEqual([
        expect.objectContaining({ code: "INVALID_FORMAT", message: "name must have the form <owner>/<repo>" }),
      ]);
    }
    expect(nestedNameProblem({ provider: "gitlab", name: "acme/platform/api" })).toBeNull();
  });
});
