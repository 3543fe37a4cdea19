import { describe, expect, it } from "@jest/globals";
import { bypassReason, hookRepository, parseUpdates, pushOptions } from "./hook.js";

describe("the pre-receive hook's inputs", () => {
  it("reads git's ref updates, one per line", () => {
    const a = "a".repeat(40);
    const z = "0".repeat(40);
    expect(parseUpdates(`${z} ${a} refs/heads/main\n${a} ${z} refs/tags/v1\n\n`)).toEqual([
      { old: z, new: a, ref: "refs/heads/main" },
      { old: a, new: z, ref: "refs/tags/v1" },
    ]);
  });

  it("takes the last verdict-bypass push option's reason, never an empty one", () => {
    const env = { GIT_PUSH_OPTION_COUNT: "3", GIT_PUSH_OPTION_0: "ci.skip", GIT_PUSH_OPTION_1: "verdict-bypass=first" };
    expect(bypassReason(pushOptions({ ...env, GIT_PUSH_OPTION_2: "verdict-bypass= revoked = yes " }))).toBe(
      "revoked = yes",
    );
    expect(bypassReason(pushOptions({ ...env, GIT_PUSH_OPTION_COUNT: "1" }))).toBeNull();
    expect(bypassReason(pushOptions({ GIT_PUSH_OPTION_COUNT: "1", GIT_PUSH_OPTION_0: "verdict-bypass=" }))).toBeNull();
    expect(bypassReason(pushOptions({}))).toBeNull();
  });

  it("names the repository as GitLab or Gitea does, else after its directory", () => {
    expect(hookRepository("/x/@hashed/ab/cd.git", { GL_PROJECT_PATH: "group/sub group/app" })).toBe(
      "group-sub-group/app",
    );
    expect(hookRepository("/x/app.git", { GITEA_REPO_USER_NAME: "acme", GITEA_REPO_NAME: "app" })).toBe("acme/app");
    expect(hookRepository("/srv/git/my app.git", {})).toBe("local/my-app");
  });
});
