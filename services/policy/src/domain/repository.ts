// Connected repositories of a hosting provider.
import { requiredEnumProblem, type FieldError } from "@verdict/kit";

export const PROVIDERS = ["github", "gitlab", "gitea", "bitbucket", "azure-devops", "generic"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** `<owner>/<repo>` with the characters hosting providers allow in either part. */
const NAME_RE = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
/** GitLab's full paths: a project in a group or in nested subgroups (GitLab nests 20 deep). */
const GITLAB_NAME_RE = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+){1,21}$/;
const MAX_NAME_LENGTH = 200;
// Git forbids spaces, `~^:?*[\` and `..` in ref names; a default branch is a short ref name.
const BRANCH_RE = /^(?!.*\.\.)[^\s~^:?*[\\]{1,255}$/;

export const DEFAULT_BRANCH = "main";

/**
 * A path in subgroups (`group/subgroup/project`) is GitLab's alone. The request schema takes it
 * for any provider (it cannot tie the name's form to the provider), so for another provider it
 * is a rule between fields: 422, not 400.
 */
export function nestedNameProblem(input: { provider: string; name: string }): FieldError | null {
  if (input.provider === "gitlab" || !GITLAB_NAME_RE.test(input.name) || NAME_RE.test(input.name)) return null;
  return {
    field: "name",
    code: "INVALID_FORMAT",
    message: "name must have the form <owner>/<repo>: only GitLab nests projects in subgroups",
  };
}

export interface ConnectRepositoryInput {
  provider: string;
  name: string;
  default_branch?: string;
}

export function checkConnectRepository(input: ConnectRepositoryInput): FieldError[] {
  const problems: FieldError[] = [];
  const provider = requiredEnumProblem("provider", input.provider, PROVIDERS);
  if (provider) problems.push(provider);
  if (!input.name) problems.push({ field: "name", code: "REQUIRED", message: "name is required" });
  else if (input.name.length > MAX_NAME_LENGTH)
    problems.push({
      field: "name",
      code: "MAX_SIZE_EXCEEDED",
      message: `name is longer than ${MAX_NAME_LENGTH} characters`,
      max: MAX_NAME_LENGTH,
    });
  else if (!GITLAB_NAME_RE.test(input.name))
    problems.push({
      field: "name",
      code: "INVALID_FORMAT",
      message:
        input.provider === "gitlab"
          ? "name must be the project's full path: <group>/<project> or <group>/<subgroup>/<project>"
          : "name must have the form <owner>/<repo>",
    });
  if (input.default_branch && !BRANCH_RE.test(input.default_branch)) {
    problems.push({
      field: "default_branch",
      code: "INVALID_FORMAT",
      message: "default_branch is not a valid branch name",
    });
  }
  return problems;
}
