import { describe, expect, it } from "@jest/globals";
import { isConnectedRepository, repositoryNotConnected } from "./connectedRepository.js";

describe("isConnectedRepository", () => {
  const stored = [
    { name: "acme/payments", connection_id: "conn_1" },
    { name: "acme/legacy" },
    { name: "acme/blank", connection_id: "" },
  ];

  it("counts a repository stored through a provider connection, whatever the case of its name", () => {
    expect(isConnectedRepository(stored, "acme/payments")).toBe(true);
    expect(isConnectedRepository(stored, "ACME/Payments")).toBe(true);
  });

  it("does not count one stored by name alone, nor one never stored", () => {
    expect(isConnectedRepository(stored, "acme/legacy")).toBe(false);
    expect(isConnectedRepository(stored, "acme/blank")).toBe(false);
    expect(isConnectedRepository(stored, "acme/other")).toBe(false);
    expect(isConnectedRepository([], "acme/payments")).toBe(false);
  });
});

describe("repositoryNotConnected", () => {
  it("is a 422 naming the field and saying how to connect the repository", () => {
    const err = repositoryNotConnected("acme/legacy");
    expect({ kind: err.kind, code: err.code, details: err.details }).toEqual({
      kind: "unprocessable",
      code: "REPOSITORY_NOT_CONNECTED",
      details: { field: "repository" },
    });
    expect(err.message).toContain("'acme/legacy'");
    expect(err.message).toContain("POST /v1/repositories");
  });
});
