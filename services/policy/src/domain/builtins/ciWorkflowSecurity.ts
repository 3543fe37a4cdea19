// CI workflows: GitHub Actions (.github/workflows/*.yml, action.yml) and GitLab CI (.gitlab-ci.yml).
// Written from GitHub's "Security hardening for GitHub Actions" (script injections, third-party
// actions pinned to a full-length commit SHA, GITHUB_TOKEN permissions), GitHub Security Lab's
// "Keeping your GitHub Actions and workflows secure" (pull_request_target checking out the pull
// request's code) and GitLab's predefined CI/CD variables (which of them the pusher writes).
import {
  builtinSettings,
  CONFIGURATION_FRAMEWORKS,
  CONFIGURATION_CATEGORY,
  docs,
  languagePaths,
  type BuiltinPolicy,
} from "./types.js";

const GITHUB = languagePaths(["github-actions"]);
const GITLAB = languagePaths(["gitlab-ci"]);

// Context fields whoever opens an issue, a pull request, a comment or pushes a commit writes:
// GitHub's list of untrusted input (titles, bodies, commit messages and authors, branch names,
// page names), plus discussions and the workflow_run event's copies of the same fields.
const UNTRUSTED_GITHUB = String.raw`github\.(?:head_ref|event\.(?:(?:issue|pull_request|discussion)\.(?:title|body)|(?:comment|review|review_comment)\.body|pull_request\.head\.(?:ref|label|repo\.default_branch)|pages(?:\[[^\]\n]*\]|\.\*)\.page_name|(?:commits(?:\[[^\]\n]*\]|\.\*)|head_commit)\.(?:message|(?:author|committer)\.(?:email|name))|workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|(?:author|committer)\.(?:email|name)))))`;
// An expression `${{ … }}` that reads one of them: GitHub substitutes it into the script's text
// before the shell (or github-script's JavaScript) reads it.
const GITHUB_EXPRESSION = String.raw`(?i)\$\{\{[^}\n]*\b${UNTRUSTED_GITHUB}\b[^}\n]*\}\}`;

// GitLab's predefined variables the author of a commit, branch or merge request writes.
const UNTRUSTED_GITLAB = String.raw`CI_(?:COMMIT_(?:MESSAGE|TITLE|DESCRIPTION|BRANCH|REF_NAME|TAG_MESSAGE|AUTHOR)|MERGE_REQUEST_(?:TITLE|DESCRIPTION|SOURCE_BRANCH_NAME)|EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME)`;

// A YAML key, possibly as the first key of a list item.
const KEY = String.raw`^[ \t]*(?:-[ \t]+)?`;

const INJECTION_RULES = ["gha-run-injection", "gitlab-script-injection"];

export const ciWorkflowSecurity: BuiltinPolicy = {
  id: "ci-workflow-security",
  name: "CI workflow security",
  description:
    "Detects insecure GitHub Actions and GitLab CI workflows: untrusted event data (pull request and issue titles and bodies, comments, commit messages, branch names) substituted into run: scripts or github-script code, third-party actions not pinned to a full commit SHA, pull_request_target or workflow_run workflows that check out the pull request's code, GitLab remote includes without an integrity hash, a GITHUB_TOKEN with write-all permissions, the deprecated set-env/add-path commands switched back on, and secrets echoed into the job log.",
  severity: "warning",
  enabled: true,
  category: CONFIGURATION_CATEGORY,
  frameworks: [
    "cwe:CWE-78",
    "cwe-top-25:CWE-78",
    "cwe:CWE-94",
    "cwe-top-25:CWE-94",
    "cwe:CWE-250",
    "cwe:CWE-494",
    "cwe:CWE-532",
    "cwe:CWE-829",
    "owasp-top-10:A08",
    "owasp-asvs:V14.2.4",
    "nist-800-53:SI-7",
    "fedramp-moderate:SI-7",
    "nist-800-53:AC-6",
    "fedramp-moderate:AC-6",
    ...CONFIGURATION_FRAMEWORKS,
  ],
  patterns: [
    {
      id: "gha-run-injection",
      type: "regex",
      value: GITHUB_EXPRESSION,
      message:
        "Untrusted event data is substituted into a run: script (script injection): pass it through env: and quote the variable",
      paths: GITHUB,
      // Only inside a run: script; the same expression in with: or env: is passed as data.
      checks: ["gha-in-run-script"],
    },
    {
      id: "gha-github-script-injection",
      type: "regex",
      value: GITHUB_EXPRESSION,
      message:
        "Untrusted event data is substituted into github-script code (code injection): read it from context.payload or process.env",
      paths: GITHUB,
      checks: ["gha-in-github-script"],
    },
    {
      id: "gitlab-script-injection",
      type: "regex",
      // The variable expanded inside a string the job hands to another interpreter (eval,
      // sh -c, python -c, node -e …), so its text becomes code. A single-quoted string is not
      // expanded by the job's shell and is not reported; `echo "$CI_COMMIT_MESSAGE"` is data.
      value: String.raw`\b(?:eval|(?:ba|da|z)?sh[ \t]+-c|python3?[ \t]+-c|node[ \t]+-e|ruby[ \t]+-e|perl[ \t]+-e)[ \t]+(?:"[^"\n]*|[^'"\s]*)\$\{?${UNTRUSTED_GITLAB}\b`,
      message:
        "A variable the commit or merge request author writes is expanded into code another interpreter runs (eval, sh -c, python -c …)",
      paths: GITLAB,
    },
    {
      id: "gha-unpinned-action",
      type: "regex",
      // A third-party action (owner/repo[/path]@ref) or a Docker image action; GitHub's own
      // actions/ and github/ organizations and local actions (./path) are not third-party.
      value: String.raw`${KEY}uses[ \t]*:[ \t]*["']?(?:[A-Za-z0-9_.-]+/[^\s"'#@]+@[^\s"'#]+|docker://[^\s"'#]+)`,
      message: "A third-party action is not pinned to a full-length commit SHA: the tag can be moved to other code",
      paths: GITHUB,
      match_allowlist: [
        String.raw`(?i)uses[ \t]*:[ \t]*["']?(?:actions|github)/`,
        String.raw`@[0-9a-fA-F]{40}$`,
        String.raw`@sha256:[0-9a-fA-F]{64}$`,
      ],
    },
    {
      id: "gha-pr-target-checkout",
      type: "regex",
      value: String.raw`(?i)${KEY}ref[ \t]*:[ \t]*["']?[^\n#]*(?:\$\{\{[ \t]*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|github\.event\.workflow_run\.head_(?:sha|branch))[ \t]*\}\}|refs/pull/\$\{\{[ \t]*github\.event\.(?:pull_request\.)?number[ \t]*\}\}/(?:merge|head))`,
      message:
        "A pull_request_target or workflow_run workflow checks out the pull request's code and runs it with the base repository's secrets and write token",
      paths: GITHUB,
      file_requires: [String.raw`(?m)^[^#\n]*\b(?:pull_request_target|workflow_run)\b`],
    },
    {
      id: "gitlab-remote-include-unverified",
      type: "regex",
      // include: remote: (or include: with a URL) fetches pipeline configuration over the network;
      // `integrity: sha256-…` beside it makes GitLab refuse a file whose hash differs.
      value: String.raw`${KEY}(?:remote|include)[ \t]*:[ \t]*["']?https?://`,
      message:
        "A remote CI configuration is included without an integrity hash: whoever controls that URL controls the pipeline",
      paths: GITLAB,
      checks: ["yaml-no-integrity"],
    },
    {
      id: "gha-write-all-permissions",
      type: "regex",
      value: String.raw`${KEY}permissions[ \t]*:[ \t]*["']?write-all["']?[ \t]*(?:#.*)?$`,
      message:
        "permissions: write-all gives the job's GITHUB_TOKEN write access to everything: grant only the scopes it needs",
      paths: GITHUB,
    },
    {
      id: "gha-unsecure-commands",
      type: "regex",
      value: String.raw`${KEY}ACTIONS_ALLOW_UNSECURE_COMMANDS["']?[ \t]*:[ \t]*["']?true\b`,
      message:
        "ACTIONS_ALLOW_UNSECURE_COMMANDS switches the deprecated set-env and add-path log commands back on: any logged text can set environment variables",
      paths: GITHUB,
    },
    {
      id: "ci-secret-echoed",
      type: "regex",
      // Printed to the job log, not piped or redirected to a file or a command (`| docker login`).
      value: String.raw`\b(?:echo|printf)\b[^\n|>]*(?:\$\{\{[ \t]*secrets\.[A-Za-z0-9_]+[ \t]*\}\}|\$\{?CI_(?:JOB_TOKEN|REGISTRY_PASSWORD|DEPLOY_PASSWORD|JOB_JWT(?:_V[12])?)\b)[^\n|>]*$`,
      message: "A secret is printed to the job log, where log masking is the only thing between it and every reader",
      paths: [...GITHUB, ...GITLAB],
    },
  ],
  suggestions: [
    'Pass event data to scripts through env: (`env: TITLE: ${{ github.event.pull_request.title }}`, then "$TITLE"), pin third-party actions to a full commit SHA, check out pull request code only in pull_request workflows without secrets, set the least permissions: each job needs, and never print secrets.',
  ],
  claims: {
    cwe: {
      "CWE-78": INJECTION_RULES,
      "CWE-94": ["gha-github-script-injection"],
      "CWE-250": ["gha-write-all-permissions"],
      "CWE-494": ["gitlab-remote-include-unverified"],
      "CWE-532": ["ci-secret-echoed"],
      "CWE-829": ["gha-unpinned-action", "gha-pr-target-checkout"],
    },
    languages: ["github-actions", "gitlab-ci"],
  },
  documentation_url: docs("ci-workflow-security"),
  settings: builtinSettings(),
};
