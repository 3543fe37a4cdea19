import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { OTHER_OBJECT_ID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const saasApiTokens: BuiltinPolicy = {
  id: "saas-api-tokens",
  name: "SaaS API tokens",
  description:
    "Detects API keys of email, telephony, productivity and developer services: SendGrid, Mailgun, Mailchimp, Brevo (Sendinblue), Twilio, Linear, Notion, Airtable, Asana, HubSpot, Zendesk, Dropbox, Contentful, Algolia, Adobe, Mapbox, MaxMind, Meraki, Yandex Cloud and others. Payment, commerce, social, exchange, monitoring and DevOps keys have policies of their own.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    formatToken(
      "sendgrid-api-key",
      "SendGrid API key found in source code",
      String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
      ["sg."],
    ),
    formatToken("twilio-api-key", "Twilio API key SID found in source code", "SK[0-9a-fA-F]{32}", ["twilio"]),
    // Not a secret alone, but it is the user name that goes with a Twilio auth token.
    formatToken("twilio-account-sid", "Twilio account SID found next to Twilio credentials", "AC[0-9a-f]{32}", [
      "twilio",
    ]),
    namedSecret(
      "twilio-auth-token",
      "Twilio auth token found in source code",
      String.raw`twilio[\w.-]{0,20}?auth[_.-]?token`,
      "[a-f0-9]{32}",
      ["twilio"],
    ),
    formatToken("mailgun-api-key", "Mailgun API key found in source code", "key-[0-9a-f]{32}", ["key-"]),
    formatToken("linear-api-key", "Linear API key found in source code", "lin_api_[A-Za-z0-9]{40}", ["lin_api_"]),
    formatToken("mailgun-public-key", "Mailgun public validation key found in source code", "pubkey-[0-9a-f]{32}", [
      "pubkey-",
    ]),
    namedSecret(
      "mailgun-webhook-signing-key",
      "Mailgun webhook signing key found in source code",
      "mailgun",
      "[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}",
      ["mailgun"],
    ),
    {
      id: "mailchimp-api-key",
      type: "regex",
      // 32 hex characters, then the account's data centre (`-us18`).
      value: String.raw`\b([0-9a-f]{32}-us[0-9]{1,2})\b`,
      message: "Mailchimp API key found in source code",
      redact_group: 1,
      keywords: ["mailchimp"],
      min_entropy: 3,
      // The example key of Mailchimp's own SDK documentation.
      allowlist: ["^3012a5754bbd716926f99c028f7ea428-us18$"],
    },
    formatToken(
      "sendinblue-api-key",
      "Brevo (Sendinblue) API key found in source code",
      "xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}",
      ["xkeysib-"],
    ),
    namedSecret(
      "linear-client-secret",
      "Linear OAuth client secret found in source code",
      "linear",
      "[a-f0-9]{32}",
      ["linear"],
      { min_entropy: 3 },
    ),
    // Integration tokens: ntn_, 11 digits, 35 letters and digits.
    formatToken(
      "notion-api-token",
      "Notion integration token found in source code",
      "ntn_[0-9]{11}[A-Za-z0-9]{35}",
      ["ntn_"],
      { min_entropy: 4 },
    ),
    formatToken(
      "airtable-personal-access-token",
      "Airtable personal access token found in source code",
      String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`,
      ["pat"],
    ),
    // Legacy API keys (key + 14 characters), assigned to an Airtable name.
    namedSecret(
      "airtable-api-key",
      "Airtable API key found in source code",
      "airtable",
      "[A-Za-z0-9]{17}",
      ["airtable"],
      { min_entropy: 3 },
    ),
    namedSecret("asana-client-id", "Asana client id found next to Asana credentials", "asana", "[0-9]{16}", ["asana"], {
      min_entropy: 2.5,
      match_allowlist: [OTHER_OBJECT_ID],
    }),
    namedSecret(
      "asana-client-secret",
      "Asana client secret found in source code",
      "asana",
      "[A-Za-z0-9]{32}",
      ["asana"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "hubspot-api-key",
      "HubSpot API key found in source code",
      "hubspot",
      "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
      ["hubspot"],
      { match_allowlist: [OTHER_OBJECT_ID] },
    ),
    namedSecret(
      "zendesk-api-token",
      "Zendesk API token found in source code",
      "zendesk",
      "[A-Za-z0-9]{40}",
      ["zendesk"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "freshbooks-access-token",
      "FreshBooks access token found in source code",
      "freshbooks",
      "[A-Za-z0-9]{64}",
      ["freshbooks"],
      { min_entropy: 3 },
    ),
    formatToken(
      "typeform-api-token",
      "Typeform personal access token found in source code",
      "tfp_[A-Za-z0-9_.=-]{59}",
      ["tfp_"],
    ),
    namedSecret("trello-api-key", "Trello API key found in source code", "trello", "[A-Za-z0-9]{32}", ["trello"], {
      min_entropy: 3,
    }),
    // Short-lived tokens (sl. + 135 characters) and long-lived ones (11 characters, ten 'A's, 43 more).
    namedSecret(
      "dropbox-access-token",
      "Dropbox access token found in source code",
      "dropbox",
      String.raw`sl\.[A-Za-z0-9_=-]{135}|[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}`,
      ["dropbox"],
    ),
    namedSecret(
      "dropbox-app-secret",
      "Dropbox app key or secret found in source code",
      "dropbox",
      "[A-Za-z0-9]{15}",
      ["dropbox"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "contentful-delivery-token",
      "Contentful delivery API token found in source code",
      "contentful",
      "[A-Za-z0-9=_-]{43}",
      ["contentful"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "algolia-admin-api-key",
      "Algolia API key found in source code",
      "algolia",
      "[a-z0-9]{32}",
      ["algolia"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "adobe-client-id",
      "Adobe client id (API key) found next to Adobe credentials",
      "adobe",
      "[a-f0-9]{32}",
      ["adobe"],
      { min_entropy: 3 },
    ),
    formatToken(
      "adobe-client-secret",
      "Adobe OAuth client secret found in source code",
      "p8e-[A-Za-z0-9]{32}",
      ["p8e-"],
      { min_entropy: 3 },
    ),
    formatToken("frameio-api-token", "Frame.io developer token found in source code", "fio-u-[A-Za-z0-9_=-]{64}", [
      "fio-u-",
    ]),
    // Public (pk.) and secret (sk.) tokens: a base64 JSON part, a dot, a 22-character signature.
    namedSecret(
      "mapbox-access-token",
      "Mapbox access token found in source code",
      "mapbox",
      String.raw`[ps]k\.[A-Za-z0-9]{60}\.[A-Za-z0-9_-]{22}`,
      ["mapbox"],
    ),
    formatToken(
      "maxmind-license-key",
      "MaxMind license key found in source code",
      "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk",
      ["_mmk"],
      { min_entropy: 4 },
    ),
    namedSecret(
      "cisco-meraki-api-key",
      "Cisco Meraki Dashboard API key found in source code",
      "(?-i:[Mm]eraki|MERAKI)",
      "[0-9a-f]{40}",
      ["meraki"],
      { min_entropy: 3 },
    ),
    namedSecret("beamer-api-key", "Beamer API key found in source code", "beamer", "b_[A-Za-z0-9=_-]{44}", ["beamer"]),
    namedSecret(
      "adafruit-io-key",
      "Adafruit IO key found in source code",
      "adafruit",
      "[A-Za-z0-9_-]{32}",
      ["adafruit"],
      { min_entropy: 3 },
    ),
    namedSecret("finnhub-api-key", "Finnhub API key found in source code", "finnhub", "[A-Za-z0-9]{20}", ["finnhub"], {
      min_entropy: 3,
    }),
    namedSecret(
      "nytimes-api-key",
      "New York Times API key found in source code",
      "nytimes|new-york-times|newyorktimes",
      "[A-Za-z0-9=_-]{32}",
      ["nytimes", "new-york-times", "newyorktimes"],
      { min_entropy: 3 },
    ),
    formatToken(
      "intra42-client-secret",
      "42 Intra OAuth client secret found in source code",
      "s-s4t2(?:ud|af)-[a-f0-9]{64}",
      ["s-s4t2ud-", "s-s4t2af-"],
    ),
    // Static access keys for Yandex Object Storage (the AWS-compatible API): YC + 38 characters.
    namedSecret(
      "yandex-cloud-access-key",
      "Yandex Cloud static access key found in source code",
      "yandex",
      "YC[A-Za-z0-9_-]{38}",
      ["yandex"],
    ),
    namedSecret(
      "yandex-cloud-api-key",
      "Yandex Cloud API key found in source code",
      "yandex",
      "AQVN[A-Za-z0-9_-]{35,38}",
      ["yandex"],
    ),
    namedSecret(
      "yandex-cloud-iam-token",
      "Yandex Cloud IAM token found in source code",
      "yandex",
      String.raw`t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2}`,
      ["yandex"],
    ),
  ],
  suggestions: [
    "Roll (revoke and reissue) the key in the provider's dashboard now, then inject it at run time from a secrets manager or the platform's secret store; use test-mode or sandbox keys in tests.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("saas-api-tokens"),
  settings: builtinSettings(),
};
