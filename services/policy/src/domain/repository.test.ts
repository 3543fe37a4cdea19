import { describe, expect, it } from "@jest/globals";
import { checkConnectRepository } from "./repository.js";

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

  it("keeps other providers' names to <owner>/<repo>", () => {
    for (const provider of ["github", "gitea"]) {
      expect(nameProblems(provider, "acme/payments")).toEqual([]);
      expect(nameProblems(provider, "acme/platform/api")).toEqual([
        expect.objectContaining({ code: "INVALID_FORMAT", message: "name must have the form <owner>/<repo>" }),
      ]);
    }
  });
});
