import { builtinSettings, docs, paths, SECURITY_CATEGORY, TRANSPORT_FRAMEWORKS, type BuiltinPolicy } from "./types.js";

export const tlsVerificationDisabled: BuiltinPolicy = {
  id: "tls-verification-disabled",
  name: "TLS certificate verification disabled",
  description:
    "Detects code and configuration that turn off TLS certificate or host name verification, which lets anyone on the network read and change the traffic: rejectUnauthorized: false and NODE_TLS_REJECT_UNAUTHORIZED=0 (Node.js), verify=False and unverified SSL contexts (Python), InsecureSkipVerify (Go), CURLOPT_SSL_VERIFYPEER off (PHP), trust-all TrustManagers and host name verifiers (Java), VERIFY_NONE (Ruby), curl -k / wget --no-check-certificate and git's sslVerify=false.",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [
    ...TRANSPORT_FRAMEWORKS,
    "owasp-asvs:V9.2.1",
    "owasp-asvs:V1.9.2",
    "cwe:CWE-295",
    "owasp-top-10:A07",
    "hipaa:164.312(e)(2)(i)",
    "nist-800-53:SC-23",
    "fedramp-moderate:SC-23",
    "nist-800-171:3.13.15",
    "cmmc:SC.L2-3.13.15",
  ],
  patterns: [
    {
      id: "js-reject-unauthorized-false",
      type: "regex",
      value: String.raw`\brejectUnauthorized\s*:\s*false\b`,
      message: "rejectUnauthorized: false disables TLS certificate verification",
      paths: paths("web"),
    },
    {
      id: "node-tls-reject-unauthorized",
      type: "regex",
      // In code, .env files, Dockerfiles (ENV X=0 or ENV X 0), YAML and shell scripts.
      value: String.raw`\bNODE_TLS_REJECT_UNAUTHORIZED["']?(?:\s*[=:]\s*|[ \t]+)["']?0\b`,
      message: "NODE_TLS_REJECT_UNAUTHORIZED=0 disables TLS certificate verification for the whole process",
      keywords: ["node_tls_reject_unauthorized"],
    },
    {
      id: "python-requests-verify-false",
      type: "regex",
      value: String.raw`\bverify\s*=\s*False\b`,
      message: "verify=False disables TLS certificate verification",
      paths: paths("python"),
    },
    {
      id: "python-unverified-ssl-context",
      type: "regex",
      value: String.raw`\bssl\._create_unverified_context\b|\bcheck_hostname\s*=\s*False\b|\bverify_mode\s*=\s*ssl\.CERT_NONE\b|\bcert_reqs\s*=\s*["']?(?:ssl\.)?CERT_NONE\b|\bssl\._create_default_https_context\s*=`,
      message: "An SSL context without certificate or host name verification",
      paths: paths("python"),
    },
    {
      id: "go-insecure-skip-verify",
      type: "regex",
      value: String.raw`\bInsecureSkipVerify\s*(?::|=)\s*(?:true|!\s*false)\b`,
      message: "InsecureSkipVerify: true disables TLS certificate verification",
      paths: paths("go"),
    },
    {
      id: "php-ssl-verify-disabled",
      type: "regex",
      value: String.raw`(?i)\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:=>|,)\s*(?:false|0)\b|["']verify["']\s*=>\s*false\b|["']verify_peer(?:_name)?["']\s*=>\s*false\b`,
      message: "TLS certificate verification disabled (cURL, Guzzle or stream context)",
      paths: paths("php"),
    },
    {
      id: "java-trust-all-manager",
      type: "regex",
      // checkServerTrusted with an empty body (comments and a bare return allowed): trusts every certificate.
      value: String.raw`\bvoid\s+checkServerTrusted\s*\([^)]*\)\s*(?:throws\s+[\w.]+(?:\s*,\s*[\w.]+)*\s*)?\{\s*(?://[^\n]*\s*|/\*(?:[^*]|\*+[^*/])*\*+/\s*)*(?:return\s*;\s*)?\}`,
      message: "An X509TrustManager whose checkServerTrusted accepts every certificate",
      paths: paths("java"),
    },
    {
      id: "java-hostname-verifier-disabled",
      type: "regex",
      value: String.raw`\bNoopHostnameVerifier\b|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\bset(?:Default|SSL)?HostnameVerifier\s*\(\s*\(\s*\w*\s*,\s*\w*\s*\)\s*->\s*true\s*\)|\bboolean\s+verify\s*\(\s*String\s+\w+\s*,\s*SSLSession\s+\w+\s*\)\s*\{\s*return\s+true\s*;\s*\}`,
      message: "A HostnameVerifier that accepts every host name",
      paths: paths("java"),
    },
    {
      id: "ruby-ssl-verify-none",
      type: "regex",
      value: String.raw`\bOpenSSL::SSL::VERIFY_NONE\b|\bssl_verify(?:_mode)?\s*(?::|=>)\s*(?:false|:none)\b|\bverify(?:_ssl|_peer)?\s*(?::|=>)\s*false\b`,
      message: "TLS certificate verification disabled",
      paths: paths("ruby"),
    },
    {
      id: "curl-insecure",
      type: "regex",
      value: String.raw`\bcurl\b[^\n|;&]*\s(?:-[A-Za-z]*k[A-Za-z]*|--insecure)(?:\s|$)|\bwget\b[^\n|;&]*\s--no-check-certificate\b`,
      message: "curl -k / wget --no-check-certificate downloads without verifying the server's certificate",
      paths: paths("shell", "dockerfile", "yaml"),
    },
    {
      id: "git-ssl-verify-disabled",
      type: "regex",
      value: String.raw`(?i)\bGIT_SSL_NO_VERIFY["']?\s*[=:]\s*["']?(?:1|true)\b|\bhttp\.sslVerify[ \t]*(?:=|[ \t])[ \t]*["']?false\b|^\s*sslVerify\s*=\s*false\b`,
      message: "git TLS certificate verification disabled",
      keywords: ["git_ssl_no_verify", "sslverify"],
    },
  ],
  suggestions: [
    'Keep certificate verification on; to trust a private CA, add its certificate to the trust store (NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE / verify="/path/ca.pem", tls.Config.RootCAs, a custom KeyStore) instead of disabling checks.',
  ],
  documentation_url: docs("tls-verification-disabled"),
  settings: builtinSettings(),
};
