import {
  builtinSettings,
  CONFIGURATION_CATEGORY,
  docs,
  paths,
  WORKLOAD_PRIVILEGE_FRAMEWORKS,
  type BuiltinPolicy,
} from "./types.js";

const FROM = String.raw`(?i)^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?`;

export const dockerfileSecurity: BuiltinPolicy = {
  id: "dockerfile-security",
  name: "Dockerfile security",
  description:
    "Detects risky container build instructions: running as root (USER root as the final stage's last USER), base images that are unpinned (:latest or no tag; earlier build stages are not images), ADD of remote URLs, piping downloaded scripts into a shell, secrets baked into ENV/ARG, and privileged containers or insecure builds.",
  severity: "warning",
  enabled: true,
  category: CONFIGURATION_CATEGORY,
  frameworks: [
    ...WORKLOAD_PRIVILEGE_FRAMEWORKS,
    "soc2:CC8.1",
    "owasp-asvs:V14.2.4",
    "owasp-asvs:V2.10.4",
    "cwe:CWE-494",
    "owasp-top-10:A08",
    "owasp-proactive-controls:C6",
    "owasp-samm:I-SB-B",
    "nist-csf:ID.RA-09",
    "cis-controls:16.5",
    "nist-800-53:SI-7",
    "fedramp-moderate:SI-7",
  ],
  patterns: [
    {
      id: "dockerfile-user-root",
      type: "regex",
      value: String.raw`(?i)^[ \t]*USER[ \t]+["']?(?:root|0)(?::\S*)?["']?[ \t]*$`,
      message: "The image's final user is root: the container runs as root",
      paths: paths("dockerfile"),
      // Only the last USER of the final stage decides who the container runs as.
      checks: ["dockerfile-final-user"],
    },
    {
      id: "dockerfile-latest-tag",
      type: "regex",
      value: String.raw`${FROM}\S+:latest(?:[ \t]|$)`,
      message: "Base image pinned to :latest; builds are not reproducible and may pull unreviewed changes",
      paths: paths("dockerfile"),
    },
    {
      id: "dockerfile-untagged-image",
      type: "regex",
      // The image reference (group 1) has no tag and no digest.
      value: String.raw`${FROM}([a-z0-9][a-z0-9._/-]*)(?:[ \t]|$)`,
      message: "Base image without a tag or digest (implicitly :latest)",
      redact_group: 1,
      paths: paths("dockerfile"),
      // scratch is no image, and an earlier stage's name (FROM build AS app … FROM app) is none either.
      allowlist: [String.raw`(?i)^scratch$`],
      checks: ["dockerfile-from-image"],
    },
    {
      id: "dockerfile-add-remote-url",
      type: "regex",
      // ADD --checksum=… verifies what it downloads and is not reported.
      value: String.raw`(?i)^[ \t]*ADD[ \t]+(?:--(?:chown|chmod|link|keep-git-dir|exclude)\S*[ \t]+)*https?://`,
      message: "ADD of a remote URL downloads without integrity verification",
      paths: paths("dockerfile"),
    },
    {
      id: "remote-script-pipe-to-shell",
      type: "regex",
      value: String.raw`\b(?:curl|wget)\b[^\n|;&]*\|[ \t]*(?:sudo[ \t]+)?(?:(?:/usr)?/bin/)?(?:ba|z|da)?sh\b`,
      message: "A downloaded script is piped straight into a shell without verification",
      paths: paths("dockerfile", "shell"),
    },
    {
      id: "dockerfile-secret-in-env",
      type: "regex",
      value: String.raw`(?i)^[ \t]*(?:ENV|ARG)[ \t]+[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)[A-Z0-9_]*(?:[ \t]*=[ \t]*|[ \t]+)["']?[^\s"'$/]`,
      message: "A secret set with ENV/ARG is stored in the image layers and history",
      paths: paths("dockerfile"),
    },
    {
      id: "docker-privileged",
      type: "regex",
      value: String.raw`\bdocker[ \t]+(?:container[ \t]+)?(?:run|create)\b[^\n]*[ \t]--privileged\b|(?i:^[ \t]*RUN[ \t]+--security=insecure)`,
      message: "A privileged container (or insecure build step) has full access to the host",
      paths: paths("dockerfile", "shell", "yaml"),
    },
  ],
  suggestions: [
    "Pin base images to a version tag and digest (FROM node:20.15-alpine@sha256:…), switch to an unprivileged USER, COPY verified files or download with a checksum check, and pass build secrets with RUN --mount=type=secret instead of ENV/ARG.",
  ],
  claims: {
    cwe: {
      "CWE-250": ["dockerfile-user-root", "docker-privileged"],
      "CWE-269": ["dockerfile-user-root", "docker-privileged"],
      "CWE-1357": ["dockerfile-latest-tag", "dockerfile-untagged-image"],
      "CWE-494": ["dockerfile-add-remote-url", "remote-script-pipe-to-shell"],
    },
    languages: ["dockerfile", "shell"],
  },
  documentation_url: docs("dockerfile-security"),
  settings: builtinSettings(),
};
