import {
  builtinSettings,
  CODE_REVIEW_FRAMEWORKS,
  docs,
  paths,
  SECURITY_CATEGORY,
  type BuiltinPolicy,
} from "./types.js";

const ANY_ORIGIN = String.raw`(?:true|["']\*["'])`;

export const permissiveCors: BuiltinPolicy = {
  id: "permissive-cors",
  name: "Permissive CORS with credentials",
  description:
    "Detects CORS configurations that let any website make credentialed requests (cookies, Authorization) and read the answers: a wildcard or reflected Access-Control-Allow-Origin together with Access-Control-Allow-Credentials, cors({ origin: true, credentials: true }), flask-cors / FastAPI / django-cors-headers allowing all origins with credentials, Go and Spring equivalents.",
  severity: "warning",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...CODE_REVIEW_FRAMEWORKS,
    "nist-ssdf:PW.5.1",
    "nist-ssdf:PW.9.1",
    "soc2:CC6.6",
    "owasp-asvs:V14.5.3",
    "cwe:CWE-942",
    "owasp-top-10:A01",
    "owasp-top-10:A05",
    "owasp-api-top-10:API8",
    "owasp-proactive-controls:C8",
    "nist-csf:PR.AA-05",
    "pci-dss:6.2.4",
    "hipaa:164.312(a)(1)",
    "nist-800-53:AC-4",
    "fedramp-moderate:AC-4",
    "nist-800-171:3.1.3",
    "cmmc:AC.L2-3.1.3",
    "eu-cra:I(2)(d)",
  ],
  patterns: [
    {
      id: "js-cors-credentials-any-origin",
      type: "regex",
      value: String.raw`\bcors\s*\(\s*\{(?:[^{}]*\borigin\s*:\s*${ANY_ORIGIN}[^{}]*\bcredentials\s*:\s*true|[^{}]*\bcredentials\s*:\s*true[^{}]*\borigin\s*:\s*${ANY_ORIGIN})`,
      message: "CORS allows any origin (reflected or *) together with credentials",
      paths: paths("js"),
    },
    {
      id: "cors-wildcard-origin-with-credentials",
      type: "regex",
      // In a file that also sends Access-Control-Allow-Credentials.
      value: String.raw`(?i)\bAccess-Control-Allow-Origin["']?\s*(?:[:,=]|=>)?\s*["']?\*`,
      message: "Access-Control-Allow-Origin: * in code that also allows credentials",
      keywords: ["access-control-allow-credentials"],
    },
    {
      id: "cors-reflected-origin-with-credentials",
      type: "regex",
      value: String.raw`(?i)\bAccess-Control-Allow-Origin["']?\s*(?:[:,=]|=>)?\s*(?:(?:req|request|ctx|c|r)\.(?:headers?\s*(?:\.\s*origin\b|\[\s*["']origin["']\s*\]|\.get\s*\(\s*["']origin["']\s*\)|\(\s*["']origin["']\s*\))|get\s*\(\s*["']origin["']\s*\)|origin\b)|\$http_origin\b|\$_SERVER\s*\[\s*["']HTTP_ORIGIN["']\s*\])`,
      message: "Access-Control-Allow-Origin reflects the request's Origin in code that also allows credentials",
      keywords: ["access-control-allow-credentials"],
    },
    {
      id: "python-cors-credentials-any-origin",
      type: "regex",
      value: String.raw`\bCORS\s*\(\s*\w+\s*,\s*supports_credentials\s*=\s*True\s*\)|\borigins\s*=\s*["']\*["'][^)\n]*\bsupports_credentials\s*=\s*True|\bsupports_credentials\s*=\s*True[^)\n]*\borigins\s*=\s*["']\*["']|\ballow_origins\s*=\s*\[\s*["']\*["']\s*\](?:[^()]|\([^()]*\))*\ballow_credentials\s*=\s*True|\ballow_credentials\s*=\s*True(?:[^()]|\([^()]*\))*\ballow_origins\s*=\s*\[\s*["']\*["']\s*\]`,
      message: "CORS allows every origin with credentials (flask-cors or Starlette/FastAPI CORSMiddleware)",
      paths: paths("python"),
    },
    {
      id: "django-cors-allow-all-with-credentials",
      type: "regex",
      value: String.raw`^[ \t]*CORS_(?:ORIGIN_ALLOW_ALL|ALLOW_ALL_ORIGINS)[ \t]*=[ \t]*True\b`,
      message: "django-cors-headers allows every origin while CORS_ALLOW_CREDENTIALS is set",
      keywords: ["cors_allow_credentials"],
      paths: paths("python"),
    },
    {
      id: "go-cors-credentials-any-origin",
      type: "regex",
      value: String.raw`\bAllow(?:ed)?Origins\s*:\s*\[\]string\s*\{\s*"\*"\s*\}|\bAllowAllOrigins\s*:\s*true\b`,
      message: "CORS allows every origin in a configuration that also allows credentials",
      keywords: ["allowcredentials"],
      paths: paths("go"),
    },
    {
      id: "java-cors-credentials-any-origin",
      type: "regex",
      value: String.raw`@CrossOrigin\s*\((?:[^()]*\borigins\s*=\s*"\*"[^()]*\ballowCredentials\s*=\s*"true"|[^()]*\ballowCredentials\s*=\s*"true"[^()]*\borigins\s*=\s*"\*")|\.allowedOriginPatterns\s*\(\s*"\*"\s*\)[^;]*\.allowCredentials\s*\(\s*true\s*\)`,
      message: "Spring CORS allows every origin with credentials",
      paths: paths("java"),
    },
  ],
  suggestions: [
    "Allow credentials only for an explicit list of trusted origins, compared exactly against the request's Origin; never reflect the Origin header or combine a wildcard with credentials, and answer Vary: Origin.",
  ],
  documentation_url: docs("permissive-cors"),
  settings: builtinSettings(),
};
