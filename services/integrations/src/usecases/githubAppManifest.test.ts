import { describe, expect, it } from "@jest/globals";
import { gitHubWebBaseUrl } from "./githubAppManifest.js";

describe("GitHub's web address for its API's", () => {
  it("is github.com for api.github.com, and the host for an Enterprise Server's /api/v3", () => {
    expect(gitHubWebBaseUrl("https://api.github.com")).toBe("https://github.com");
    expect(gitHubWebBaseUrl("https://api.github.com/")).toBe("https://github.com");
    expect(gitHubWebBaseUrl("https://ghe.acme.test/api/v3")).toBe("https://ghe.acme.test");
    expect(gitHubWebBaseUrl("http://127.0.0.1:4010/api/v3/")).toBe("http://127.0.0.1:4010");
    expect(gitHubWebBaseUrl("http://127.0.0.1:4010")).toBe("http://127.0.0.1:4010");
  });
});
