import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  EVERY_RULE,
  paths,
  SECURITY_CATEGORY,
  TRANSPORT_FRAMEWORKS,
} from "./types.js";

// Hosts for which plain http:// is fine: this machine, private and reserved names, single-label
// service names (docker-compose, Kubernetes), and the well-known identifiers of schemas and XML
// namespaces, which are names rather than endpoints. Anchored at the end so they work on the host
// alone or on the whole match (`"http://host:port`).
const LOCAL_AND_IDENTIFIER_HOSTS = [
  String.raw`(?i)(?:^|//)(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0|\[::1?\]|10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}|169\.254\.\d{1,3}\.\d{1,3})(?::\d+)?$`,
  String.raw`(?i)(?:^|//)[a-z0-9_-]+(?::\d+)?$`,
  String.raw`(?i)(?:^|//|\.)(?:localhost|local|internal|test|example|invalid|lan|home\.arpa|svc|cluster\.local)(?::\d+)?$`,
  String.raw`(?i)(?:^|//|\.)example\.(?:com|org|net)(?::\d+)?$`,
  String.raw`(?i)(?:^|//)(?:www\.)?(?:w3\.org|json-schema\.org|schema\.org|xmlsoap\.org|schemas\.xmlsoap\.org|schemas\.microsoft\.com|schemas\.android\.com|schemas\.openxmlformats\.org|purl\.org|xmlns\.com|ns\.adobe\.com|java\.sun\.com|xmlns\.jcp\.org|springframework\.org|maven\.apache\.org|apache\.org|docs\.oasis-open\.org|openarchives\.org|ogp\.me|opensource\.org|gnu\.org|creativecommons\.org|relaxng\.org|xml\.org|rdfs\.org|dublincore\.org|openid\.net|jabber\.org)(?::\d+)?$`,
];

// Configuration files, except package.json, whose homepage/author/bugs URLs are links rather
// than endpoints. RE2 has no lookaround: "a .json file whose name is not package" is spelled out.
const CONFIG_PATHS = [
  String.raw`(?i)\.(?:ya?ml|jsonc|json5|toml|ini|cfg|conf|properties|tf|tfvars|hcl)$`,
  String.raw`(?i)(?:^|/)(?:[^/]{0,6}|[^/]{8,}|[^p/][^/]{6}|p[^a/][^/]{5}|pa[^c/][^/]{4}|pac[^k/][^/]{3}|pack[^a/][^/]{2}|packa[^g/][^/]|packag[^e/])\.json$`,
  ...paths("dotenv"),
];

const HOST = String.raw`([A-Za-z0-9._-]+|\[[0-9A-Fa-f:]+\])(?::[0-9]{1,5})?`;

export const cleartextHttp: BuiltinPolicy = {
  id: "cleartext-http",
  name: "Cleartext HTTP endpoints",
  description:
    "Detects http:// URLs to remote hosts in code (string literals) and configuration values; traffic to them can be read and changed in transit. Local addresses, private networks, single-label service names, reserved example domains and schema / XML namespace identifiers are ignored.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...TRANSPORT_FRAMEWORKS,
    "owasp-asvs:V9.1.1",
    "owasp-asvs:V9.2.2",
    "owasp-asvs:V1.9.1",
    "cwe:CWE-319",
    "owasp-api-top-10:API8",
    "owasp-api-top-10:API10",
    "hipaa:164.312(e)(2)(ii)",
  ],
  patterns: [
    {
      id: "http-url-in-code",
      type: "regex",
      value: String.raw`["'\x60]http://${HOST}`,
      message: "Cleartext http:// URL to a remote host",
      redact_group: 1,
      keywords: ["http://"],
      paths: paths("code"),
      allowlist: LOCAL_AND_IDENTIFIER_HOSTS,
    },
    {
      id: "http-url-in-config",
      type: "regex",
      value: String.raw`(?:[:=][ \t]*["']?|^[ \t]*-[ \t]+["']?)http://${HOST}`,
      message: "Cleartext http:// URL to a remote host in configuration",
      redact_group: 1,
      keywords: ["http://"],
      paths: CONFIG_PATHS,
      allowlist: LOCAL_AND_IDENTIFIER_HOSTS,
    },
  ],
  suggestions: [
    "Use https:// (and HSTS on your own services); if the remote side offers no TLS, tunnel the traffic or move to an endpoint that does.",
  ],
  claims: { cwe: { "CWE-319": EVERY_RULE }, languages: ["java", "typescript", "json", "yaml"] },
  documentation_url: docs("cleartext-http"),
  settings: builtinSettings(),
};
