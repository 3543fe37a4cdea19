import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const aiApiKeys: BuiltinPolicy = {
  id: "ai-api-keys",
  name: "AI service API keys",
  description:
    "Detects API keys of OpenAI (user, project, service account and admin keys), Anthropic (API and admin keys), Hugging Face (user and organization tokens), Cohere, Private AI, Groq, Replicate and Perplexity.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    // Keys carry "T3BlbkFJ" ("OpenAI" in base64) in the middle; project, service account and
    // admin keys also have a distinctive prefix of their own.
    formatToken(
      "openai-api-key",
      "OpenAI API key found in source code",
      "sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|sk-[A-Za-z0-9_-]{20,74}T3BlbkFJ[A-Za-z0-9_-]{20,74}",
      ["t3blbkfj", "sk-proj-", "sk-svcacct-", "sk-admin-"],
    ),
    formatToken("anthropic-api-key", "Anthropic API key found in source code", "sk-ant-api03-[A-Za-z0-9_-]{93}AA", [
      "sk-ant-api03-",
    ]),
    formatToken(
      "anthropic-admin-api-key",
      "Anthropic Admin API key (organization administration) found in source code",
      "sk-ant-admin01-[A-Za-z0-9_-]{93}AA",
      ["sk-ant-admin01-"],
    ),
    formatToken("huggingface-token", "Hugging Face access token found in source code", "hf_[A-Za-z]{34}", ["hf_"]),
    formatToken(
      "huggingface-organization-token",
      "Hugging Face organization API token found in source code",
      "api_org_[A-Za-z]{34}",
      ["api_org_"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "cohere-api-key",
      "Cohere API key found in source code",
      String.raw`cohere|\bco_api_key`,
      "[A-Za-z0-9]{40}",
      ["cohere", "co_api_key"],
      { min_entropy: 4 },
    ),
    namedSecret(
      "privateai-api-key",
      "Private AI API key found in source code",
      "private[_-]?ai",
      "[a-z0-9]{32}",
      ["privateai", "private_ai", "private-ai"],
      { min_entropy: 3 },
    ),
    formatToken("groq-api-key", "Groq API key found in source code", "gsk_[A-Za-z0-9]{52}", ["gsk_"]),
    formatToken("replicate-api-token", "Replicate API token found in source code", "r8_[A-Za-z0-9]{37}", ["r8_"]),
    formatToken("perplexity-api-key", "Perplexity API key found in source code", "pplx-[A-Za-z0-9]{48}", ["pplx-"]),
  ],
  suggestions: [
    "Revoke the key in the provider's console now (leaked AI keys are abused within minutes and billed to you), then read it from the environment or a secrets manager; set a usage limit on the new key.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("ai-api-keys"),
  settings: builtinSettings(),
};
