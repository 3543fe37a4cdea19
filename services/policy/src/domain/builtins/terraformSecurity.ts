// Terraform (HCL) for AWS, GCP and Azure, written from the providers' Terraform documentation
// (registry.terraform.io: aws_s3_bucket_acl, aws_security_group, aws_db_instance, aws_ebs_volume,
// google_storage_bucket_iam_*, google_compute_firewall, azurerm_storage_account, …) and the
// providers' own security guides (AWS S3 Block Public Access, IAM least privilege; Google Cloud
// "allUsers"/"allAuthenticatedUsers" principals; Azure anonymous blob access).
// No HCL grammar ships for ast-grep, so these are RE2 rules on the attribute's line, and the
// checks that need the block around it (its resource type, its ports, its other attributes) read
// the enclosing `{ … }` by counting braces (services/evaluation/src/domain/checks/terraform.ts).
import {
  builtinSettings,
  CONFIGURATION_FRAMEWORKS,
  CONFIGURATION_CATEGORY,
  docs,
  languagePaths,
  type BuiltinPolicy,
} from "./types.js";

const TF = languagePaths(["terraform"]);
// An attribute at the start of a line: `name = value` (HCL) or `"Name": value` (a JSON policy in a heredoc).
const ATTR = (names: string) => String.raw`^[ \t]*["']?(?:${names})["']?[ \t]*[=:][ \t]*`;
const STRING = (values: string) => String.raw`["'](?:${values})["']`;

// An address range of the whole internet as the source of a rule: AWS, GCP and Azure spellings.
const OPEN_TO_INTERNET =
  "(?i)" +
  ATTR("cidr_blocks|ipv6_cidr_blocks|cidr_ipv4|cidr_ipv6|source_ranges|source_address_prefix(?:es)?") +
  String.raw`(?:\[[^\]\n]*)?["'](?:0\.0\.0\.0/0|::/0|\*|Internet|Any)["']`;

const ACCESS_RULES = [
  "tf-s3-public-acl",
  "tf-s3-public-access-block-off",
  "tf-gcp-public-member",
  "tf-azure-public-blob",
  "tf-open-ssh",
  "tf-open-rdp",
];

export const terraformSecurity: BuiltinPolicy = {
  id: "terraform-security",
  name: "Terraform security (AWS, GCP, Azure)",
  description:
    "Detects insecure cloud resources in Terraform: storage open to everyone (S3 public ACLs and Block Public Access switched off, GCP allUsers/allAuthenticatedUsers members, Azure anonymous blob access), security groups and firewalls that open SSH or RDP to the internet, storage and databases left unencrypted (RDS, EBS, EFS, ElastiCache), IAM policies that allow every action on every resource, audit and flow logging switched off, and TLS minimum versions below 1.2.",
  severity: "warning",
  enabled: true,
  category: CONFIGURATION_CATEGORY,
  frameworks: [
    "cwe:CWE-284",
    "cwe:CWE-269",
    "cwe-top-25:CWE-269",
    "cwe:CWE-311",
    "cwe:CWE-327",
    "cwe:CWE-778",
    "nist-800-53:AC-3",
    "nist-800-53:AC-6",
    "fedramp-moderate:AC-6",
    "nist-800-53:SC-28",
    "nist-800-53:AU-2",
    "soc2:CC6.1",
    "owasp-asvs:V4.1.3",
    "owasp-asvs:V7.1.3",
    "owasp-asvs:V9.1.3",
    ...CONFIGURATION_FRAMEWORKS,
  ],
  patterns: [
    {
      id: "tf-s3-public-acl",
      type: "regex",
      value: "(?i)" + ATTR("acl") + STRING("public-read|public-read-write|authenticated-read"),
      message: "A canned ACL makes the bucket or object readable (or writable) by everyone",
      paths: TF,
    },
    {
      id: "tf-s3-public-access-block-off",
      type: "regex",
      value:
        "(?i)" + ATTR("block_public_acls|block_public_policy|ignore_public_acls|restrict_public_buckets") + "false\\b",
      message: "S3 Block Public Access is switched off: a public ACL or bucket policy takes effect",
      paths: TF,
    },
    {
      id: "tf-gcp-public-member",
      type: "regex",
      value: "(?i)" + ATTR("members?") + String.raw`(?:\[[^\]\n]*)?["'](?:allUsers|allAuthenticatedUsers)["']`,
      message:
        "allUsers or allAuthenticatedUsers: the resource is granted to anyone on the internet (or any Google account)",
      paths: TF,
    },
    {
      id: "tf-azure-public-blob",
      type: "regex",
      value: String.raw`(?i)${ATTR("allow_nested_items_to_be_public|allow_blob_public_access")}true\b|${ATTR("container_access_type")}${STRING("blob|container")}`,
      message: "Anonymous public read access to blobs is allowed",
      paths: TF,
    },
    {
      id: "tf-open-ssh",
      type: "regex",
      value: OPEN_TO_INTERNET,
      message: "SSH (TCP 22) is open to the whole internet",
      paths: TF,
      // The block it is in admits traffic (not egress, not a Deny) on TCP port 22.
      checks: ["tf-ingress-ssh"],
    },
    {
      id: "tf-open-rdp",
      type: "regex",
      value: OPEN_TO_INTERNET,
      message: "RDP (TCP 3389) is open to the whole internet",
      paths: TF,
      checks: ["tf-ingress-rdp"],
    },
    {
      id: "tf-iam-wildcard",
      type: "regex",
      // A list may open on the line before: `actions = [` then `"*",`.
      value: "(?i)" + ATTR("actions?") + String.raw`\[?\s*["']\*["'][ \t]*\]?[ \t]*,?[ \t]*$`,
      message: "An IAM policy statement allows every action on every resource",
      paths: TF,
      // The same statement names every resource ("*") and is not a Deny.
      checks: ["tf-statement-all-resources"],
    },
    {
      id: "tf-storage-unencrypted",
      type: "regex",
      value: String.raw`(?i)${ATTR("encrypted|storage_encrypted|at_rest_encryption_enabled")}false\b|^[ \t]*resource[ \t]+"(?:aws_db_instance|aws_rds_cluster|aws_ebs_volume|aws_efs_file_system|aws_elasticache_replication_group)"`,
      message:
        "Storage or database encryption at rest is off (explicitly, or by the provider's default when the attribute is not set)",
      paths: TF,
      // A resource header is reported only when its block does not switch encryption on.
      checks: ["tf-not-encrypted"],
    },
    {
      id: "tf-logging-disabled",
      type: "regex",
      value: "(?i)" + ATTR("enable_logging|enable_flow_logs|logging_enabled") + "false\\b",
      message: "Audit or flow logging is switched off",
      paths: TF,
    },
    {
      id: "tf-weak-tls-version",
      type: "regex",
      value:
        "(?i)" +
        ATTR("min_tls_version|minimum_tls_version|minimum_protocol_version|ssl_policy|tls_security_policy") +
        String.raw`["'](?:TLS1_[01]|1\.[01]|TLS_1_[01]|SSLv3|TLSv1|TLSv1_2016|TLSv1\.1_2016|ELBSecurityPolicy-(?:2015-05|2016-08|TLS-1-0-2015-04|TLS-1-1-2017-01)|Policy-Min-TLS-1-0-2019-07)["']` +
        // CloudFront's default *.cloudfront.net certificate fixes the minimum at TLSv1.
        "|" +
        ATTR("cloudfront_default_certificate") +
        String.raw`true\b`,
      message: "The minimum TLS version is below 1.2",
      paths: TF,
    },
  ],
  suggestions: [
    "Keep storage private (S3 Block Public Access on, no allUsers members, no anonymous blob access), open SSH/RDP only to known ranges or use a bastion/IAP, set storage_encrypted/encrypted = true, grant IAM actions and resources by name, keep CloudTrail and flow logs on, and require TLS 1.2 or later.",
  ],
  claims: {
    cwe: {
      "CWE-284": ACCESS_RULES,
      "CWE-269": ["tf-iam-wildcard"],
      "CWE-311": ["tf-storage-unencrypted"],
      "CWE-327": ["tf-weak-tls-version"],
      "CWE-778": ["tf-logging-disabled"],
    },
    languages: ["terraform"],
  },
  documentation_url: docs("terraform-security"),
  settings: builtinSettings(),
};
