import {
  builtinSettings,
  CONFIGURATION_CATEGORY,
  docs,
  paths,
  WORKLOAD_PRIVILEGE_FRAMEWORKS,
  type BuiltinPolicy,
} from "./types.js";

// A YAML key, possibly as the first key of a list item.
const KEY = String.raw`^[ \t]*(?:-[ \t]+)?`;
const TRUE = String.raw`[ \t]*:[ \t]*["']?true["']?[ \t]*(?:#.*)?$`;

// The rules that catch a container running with more privilege than it needs (CWE-250, CWE-269).
const PRIVILEGE_RULES = [
  "k8s-privileged-container",
  "k8s-run-as-root",
  "k8s-run-as-non-root-false",
  "k8s-allow-privilege-escalation",
  "k8s-host-namespace",
  "k8s-dangerous-capabilities",
  "k8s-docker-socket-mount",
];

export const kubernetesSecurity: BuiltinPolicy = {
  id: "kubernetes-security",
  name: "Kubernetes and Compose workload security",
  description:
    "Detects insecure workload settings in Kubernetes manifests, Helm values and Compose files: privileged containers, running as root (runAsUser: 0, runAsNonRoot: false without a non-zero runAsUser; set for the whole pod, only when some container does not set a non-zero runAsUser of its own), privilege escalation, host namespaces, dangerous capabilities, the Docker socket mounted in, writable root file systems and unpinned images (:latest or no tag).",
  severity: "warning",
  enabled: true,
  category: CONFIGURATION_CATEGORY,
  frameworks: [
    ...WORKLOAD_PRIVILEGE_FRAMEWORKS,
    "soc2:CC6.1",
    "owasp-asvs:V1.14.5",
    "nist-800-53:SC-39",
    "fedramp-moderate:SC-39",
    "eu-cra:I(2)(j)",
  ],
  patterns: [
    {
      id: "k8s-privileged-container",
      type: "regex",
      value: String.raw`${KEY}privileged${TRUE}`,
      message: "Privileged container: full access to the node",
      paths: paths("yaml"),
    },
    {
      id: "k8s-run-as-root",
      type: "regex",
      value: String.raw`${KEY}runAsUser[ \t]*:[ \t]*["']?0["']?[ \t]*(?:#.*)?$`,
      message: "runAsUser: 0 runs the container as root",
      paths: paths("yaml"),
      // The pod's runAsUser: 0 is moot when every container sets a non-zero runAsUser of its own.
      checks: ["k8s-pod-setting-applies"],
    },
    {
      id: "k8s-run-as-non-root-false",
      type: "regex",
      value: String.raw`${KEY}runAsNonRoot[ \t]*:[ \t]*["']?false\b`,
      message: "runAsNonRoot: false without a non-zero runAsUser lets the container run as root",
      paths: paths("yaml"),
      // A non-zero runAsUser beside it already keeps the container off root, as does one in
      // every container when the setting is the pod's.
      checks: ["yaml-no-non-root-user", "k8s-pod-setting-applies"],
    },
    {
      id: "k8s-allow-privilege-escalation",
      type: "regex",
      value: String.raw`${KEY}allowPrivilegeEscalation${TRUE}`,
      message: "allowPrivilegeEscalation: true lets processes gain more privileges (setuid, capabilities)",
      paths: paths("yaml"),
    },
    {
      id: "k8s-host-namespace",
      type: "regex",
      value: String.raw`${KEY}(?:host(?:Network|PID|IPC)|network_mode[ \t]*:[ \t]*["']?host|pid[ \t]*:[ \t]*["']?host)\b(?:${TRUE}|["']?[ \t]*(?:#.*)?$)`,
      message: "The pod shares the node's network, process or IPC namespace",
      paths: paths("yaml"),
    },
    {
      id: "k8s-dangerous-capabilities",
      type: "regex",
      value: String.raw`^[ \t]*(?:add|cap_add)[ \t]*:[ \t]*\[[^\]\n]*\b(?:SYS_ADMIN|NET_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH|ALL)\b|${KEY}["']?(?:CAP_)?(?:SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH)["']?[ \t]*(?:#.*)?$`,
      message: "A dangerous Linux capability is added to the container",
      paths: paths("yaml"),
    },
    {
      id: "k8s-docker-socket-mount",
      type: "regex",
      value: String.raw`/(?:var/)?run/docker\.sock\b`,
      message: "The Docker socket is mounted into a container: root on the host",
      paths: paths("yaml"),
    },
    {
      id: "k8s-writable-root-filesystem",
      type: "regex",
      value: String.raw`${KEY}readOnlyRootFilesystem[ \t]*:[ \t]*["']?false\b`,
      message: "readOnlyRootFilesystem: false lets an attacker modify the container's files",
      paths: paths("yaml"),
    },
    {
      id: "k8s-image-latest-tag",
      type: "regex",
      value: String.raw`${KEY}image[ \t]*:[ \t]*["']?[^\s"'#]+:latest["']?[ \t]*(?:#.*)?$`,
      message: "Image pinned to :latest; deployments are not reproducible",
      paths: paths("yaml"),
    },
    {
      id: "k8s-image-untagged",
      type: "regex",
      value: String.raw`${KEY}image[ \t]*:[ \t]*["']?[a-z0-9][a-z0-9._/-]*["']?[ \t]*(?:#.*)?$`,
      message: "Image without a tag or digest (implicitly :latest)",
      paths: paths("yaml"),
    },
  ],
  suggestions: [
    "Set a restrictive securityContext (runAsNonRoot: true, a non-zero runAsUser, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: drop: [ALL]), avoid host namespaces and hostPath sockets, pin images by version and digest, and enforce the Pod Security Standards (restricted) on the namespace.",
  ],
  claims: {
    cwe: {
      "CWE-250": PRIVILEGE_RULES,
      "CWE-269": PRIVILEGE_RULES,
      "CWE-1357": ["k8s-image-latest-tag", "k8s-image-untagged"],
    },
    languages: ["kubernetes", "docker-compose"],
  },
  documentation_url: docs("kubernetes-security"),
  settings: builtinSettings(),
};
