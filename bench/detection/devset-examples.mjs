// Providers' documented example tokens, for the secrets dev set: each value as the provider's page
// (`doc`) prints it, in the syntax the page shows it in (a curl command, a config file, a script
// tag), copied from that page.
//
// Labelling rule: a value the page prints in the full form of a real credential (the documented
// prefix, length and alphabet), whether or not it still works (no scanner can tell a revoked key
// from a live one offline), is a positive (`secrets`). A negative (no `secrets`) is what the page
// prints instead of a credential: a placeholder (`YOUR_API_KEY`, `XXXX…`, a `$VARIABLE`), a value
// shortened with `...`, or a value the provider's page says is public by design.
export const EXAMPLE_TOKENS = [
  {
    id: "stripe-test-secret-key",
    group: "Stripe",
    doc: "https://docs.stripe.com/api/authentication",
    path: "docs/stripe-auth.sh",
    content: `curl https://api.stripe.com/v1/charges \\
  -u sk_test_BQokikJOvBiI2HlWgH4olfQ2:
# The colon prevents curl from asking for a password.
`,
    secrets: ["sk_test_BQokikJOvBiI2HlWgH4olfQ2"],
  },
  {
    id: "stripe-test-secret-key-shortened",
    group: "Stripe",
    doc: "https://docs.stripe.com/api/authentication",
    path: "docs/stripe-bearer.sh",
    content: `curl https://api.stripe.com/v1/charges \\
  -H "Authorization: Bearer sk_test_BQokikJ...2HlWgH4olfQ2"
`,
    secrets: [],
  },
  {
    id: "x-consumer-key-and-secret",
    group: "X (Twitter)",
    doc: "https://developer.x.com/en/docs/authentication/oauth-2-0/bearer-tokens",
    path: "docs/x-bearer-token.sh",
    content: `curl -u 'xvz1evFS4wEEPTGEFPHBog:L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg' \\
  --data 'grant_type=client_credentials' \\
  'https://api.x.com/oauth2/token'
`,
    secrets: ["L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg"],
  },
  {
    id: "x-bearer-token",
    group: "X (Twitter)",
    doc: "https://developer.x.com/en/docs/authentication/oauth-2-0/bearer-tokens",
    path: "docs/x-token-response.json",
    content: `{"token_type":"bearer","access_token":"AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3DEUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F"}
`,
    secrets: [
      "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3DEUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F",
    ],
  },
  {
    id: "x-variables",
    group: "X (Twitter)",
    doc: "https://developer.x.com/en/docs/authentication/oauth-2-0/bearer-tokens",
    path: "docs/x-bearer-token-vars.sh",
    content: `curl -u "$API_KEY:$API_SECRET_KEY" \\
  --data 'grant_type=client_credentials' \\
  'https://api.x.com/oauth2/token'
`,
    secrets: [],
  },
  {
    id: "aws-credentials-file",
    group: "AWS",
    doc: "https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html",
    path: "home/.aws/credentials",
    content: `[default]
aws_access_key_id=AKIAIOSFODNN7EXAMPLE
aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
`,
    secrets: ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
  },
  {
    id: "jwt-rfc7519",
    group: "JSON Web Token",
    doc: "https://www.rfc-editor.org/rfc/rfc7519#section-3.1",
    path: "docs/jwt-example.txt",
    content: `Authorization: Bearer eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk
`,
    secrets: [
      "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    ],
  },
  {
    id: "jwt-io",
    group: "JSON Web Token",
    doc: "https://jwt.io/",
    path: "docs/jwt-io.js",
    content: `const token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
`,
    secrets: [
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ],
  },
  {
    id: "azurite-well-known-key",
    group: "Azure Storage",
    doc: "https://learn.microsoft.com/en-us/azure/storage/common/storage-connect-azurite",
    path: "config/local.settings.txt",
    content: `StorageConnectionString=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;
`,
    secrets: [],
  },
  {
    id: "mailgun-placeholder",
    group: "Mailgun",
    doc: "https://documentation.mailgun.com/docs/validate/api-overview",
    path: "docs/mailgun.sh",
    content: `curl --user 'api:YOUR_API_KEY' \\
     -X POST https://api.mailgun.net/v1/inspect/accessibility \\
     -H "Content-Type: application/json"
`,
    secrets: [],
  },
  {
    id: "google-maps-placeholder",
    group: "Google Maps",
    doc: "https://developers.google.com/maps/documentation/javascript/get-api-key",
    path: "docs/map.html",
    content: `<script async
  src="https://maps.googleapis.com/maps/api/js?key=YOUR_API_KEY&callback=initMap">
</script>
`,
    secrets: [],
  },
  {
    id: "slack-webhook-placeholder",
    group: "Slack",
    doc: "https://api.slack.com/messaging/webhooks",
    path: "docs/slack-webhook.sh",
    content: `curl -X POST -H 'Content-type: application/json' --data '{"text":"Hello, World!"}' https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX
`,
    secrets: [],
  },
  {
    id: "github-placeholder",
    group: "GitHub",
    doc: "https://docs.github.com/en/rest/authentication/authenticating-to-the-rest-api",
    path: "docs/github.sh",
    content: `curl --request GET \\
--url "https://api.github.com/octocat" \\
--header "Authorization: Bearer YOUR-TOKEN" \\
--header "X-GitHub-Api-Version: 2022-11-28"
`,
    secrets: [],
  },
];
