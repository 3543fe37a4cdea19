import { assignment, builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const aiApiKeys: BuiltinPolicy = {
  id: "ai-api-keys",
  name: "AI service API keys",
  description: "Detects API keys of OpenAI (user, project, service account and admin keys), Anthropic (API and admin keys), Hugging Face (user and organization tokens), Cohere, Private AI, Groq, Replicate and Perplexity.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "openai-api-key",
      type: "regex",
      // Keys carry "T3BlbkFJ" ("OpenAI" in base64) in the middle; project, service account and
      // admin keys also have a distinctive prefix of their own.
      value: String.raw`\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|sk-[A-Za-z0-9_-]{20,74}T3BlbkFJ[A-Za-z0-9_-]{20,74})${TOKEN_END}`,
      message: "OpenAI API key found in source code",
      redact_group: 1,
      keywords: ["t3blbkfj", "sk-proj-", "sk-svcacct-", "sk-admin-"],
    },
    {
      id: "anthropic-api-key",
      type: "regex",
      value: String.raw`\b(sk-ant-api03-[A-Za-z0-9_-]{93}AA)${TOKEN_END}`,
      message: "Anthropic API key found in source code",
      redact_group: 1,
      keywords: ["sk-ant-api03-"],
    },
    {
      id: "anthropic-admin-api-key",
      type: "regex",
      value: String.raw`\b(sk-ant-admin01-[A-Za-z0-9_-]{93}AA)${TOKEN_END}`,
      message: "Anthropic Admin API key (organization administration) found in source code",
      redact_group: 1,
      keywords: ["sk-ant-admin01-"],
    },
    {
      id: "huggingface-token",
      type: "regex",
      value: String.raw`\bhf_[A-Za-z]{34}\b`,
      message: "Hugging Face access token found in source code",
      keywords: ["hf_"],
    },
    {
      id: "huggingface-organization-token",
      type: "regex",
      value: String.raw`\bapi_org_[A-Za-z]{34}\b`,
      message: "Hugging Face organization API token found in source code",
      keywords: ["api_org_"],
      min_entropy: 3,
    },
    {
      id: "cohere-api-key",
      type: "regex",
      value: assignment(String.raw`cohere|\bco_api_key`, "[A-Za-z0-9]{40}"),
      message: "Cohere API key found in source code",
      redact_group: 1,
      keywords: ["cohere", "co_api_key"],
      min_entropy: 4,
    },
    {
      id: "privateai-api-key",
      type: "regex",
      value: assignment("private[_-]?ai", "[a-z0-9]{32}"),
      message: "Private AI API key found in source code",
      redact_group: 1,
      keywords: ["privateai", "private_ai", "private-ai"],
      min_entropy: 3,
    },
    {
      id: "groq-api-key",
      type: "regex",
      value: String.raw`\bgsk_[A-Za-z0-9]{52}\b`,
      message: "Groq API key found in source code",
      keywords: ["gsk_"],
    },
    {
      id: "replicate-api-token",
      type: "regex",
      value: String.raw`\br8_[A-Za-z0-9]{37}\b`,
      message: "Replicate API token found in source code",
      keywords: ["r8_"],
    },
    {
      id: "perplexity-api-key",
      type: "regex",
      value: String.raw`\bpplx-[A-Za-z0-9]{48}\b`,
      message: "Perplexity API key found in source code",
      keywords: ["pplx-"],
    },
  ],
  suggestions: [
    "Revoke the key in the provider's console now (leaked AI keys are abused within minutes and billed to you), then read it from the environment or a secrets manager; set a usage limit on the new key.",
  ],
  documentation_url: docs("ai-api-keys"),
  settings: builtinSettings(),
};
