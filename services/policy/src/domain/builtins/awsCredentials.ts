import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const awsCredentials: BuiltinPolicy = {
  id: "aws-credentials",
  name: "AWS credentials",
  description:
    "Detects AWS access key ids (long-term AKIA, temporary ASIA and the other key id prefixes), secret access keys assigned next to their usual names, STS session tokens, Amazon Bedrock API keys and Amazon MWS auth tokens.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "aws-access-key-id",
      type: "regex",
      value: String.raw`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
      message: "AWS access key id found in source code",
      keywords: ["akia", "asia", "abia", "acca", "a3t"],
    },
    {
      id: "aws-secret-access-key",
      type: "regex",
      // 40 base64 characters assigned to aws_secret_access_key, AWS_SECRET, secretAccessKey,
      // "SecretAccessKey" (STS output)… The key has no prefix of its own, hence the name.
      value: String.raw`(?i)(?:aws_?secret(?:_?access)?(?:_?key)?|secret_?access_?key)[a-z0-9_]*["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`,
      message: "AWS secret access key found in source code",
      redact_group: 1,
      keywords: ["aws_secret", "awssecret", "aws-secret", "secretaccesskey", "secret_access_key"],
      min_entropy: 3.5,
    },
    {
      id: "aws-session-token",
      type: "regex",
      // STS session tokens start with a fixed serialization header ("!\n\torigin_ec", "er/aws").
      value: String.raw`\b((?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz)[A-Za-z0-9/+=]{80,})`,
      message: "AWS STS session token found in source code",
      redact_group: 1,
      keywords: ["iqojb3jpz2lu", "fwogzxivyxdz", "fqogzxivyxdz"],
    },
    {
      id: "aws-bedrock-api-key",
      type: "regex",
      // Long-term Bedrock API keys: ABSK + base64 of "BedrockAPIKey-<id>:<secret>".
      value: String.raw`\b(ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{105,265}={0,2})(?:[^A-Za-z0-9+/=]|$)`,
      message: "Amazon Bedrock long-term API key found in source code",
      redact_group: 1,
      keywords: ["absk"],
      min_entropy: 3,
    },
    {
      id: "aws-bedrock-short-term-api-key",
      type: "regex",
      // Short-term Bedrock API keys: bedrock-api-key- + base64 of "bedrock.amazonaws.com/?Action=CallWithBearerToken&…" (a presigned URL).
      value: String.raw`\b(bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]*={0,2})(?:[^A-Za-z0-9+/=]|$)`,
      message: "Amazon Bedrock short-term API key found in source code",
      redact_group: 1,
      keywords: ["bedrock-api-key-"],
    },
    {
      id: "aws-mws-auth-token",
      type: "regex",
      value: String.raw`\bamzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
      message: "Amazon Marketplace Web Service auth token found in source code",
      keywords: ["amzn.mws."],
    },
  ],
  suggestions: [
    "Deactivate and rotate this key in AWS IAM now, then load credentials from the environment, an instance role or a secrets manager instead of source code.",
    "Prefer short-lived credentials: IAM roles for EC2/ECS/Lambda, IRSA or EKS Pod Identity on Kubernetes, and OIDC federation in CI.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("aws-credentials"),
  settings: builtinSettings(),
};
