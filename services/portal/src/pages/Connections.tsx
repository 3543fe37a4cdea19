import {
  Alert,
  Anchor,
  Badge,
  Button,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, call, onNamedField, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { useSession } from "../session";
import { ConfirmButton, Copyable, ErrorAlert, FieldRow, fmtDate, FormCard, ListTable, PageTitle } from "../ui";

type Connection = Schemas["Connection"];
type Provider = Schemas["CreateConnection"]["provider"];
type Credential = "token" | "app_id" | "private_key";

/** What each provider takes besides its address and webhook secret, and what the provider calls them. */
const PROVIDERS: Record<
  Provider,
  {
    label: string;
    urlLabel: string;
    urlPlaceholder: string;
    defaultUrl: string;
    credentials: { field: Credential; label: string; description?: string; multiline?: boolean }[];
    secretLabel: string;
  }
> = {
  gitea: {
    label: "Gitea / Forgejo",
    urlLabel: "Gitea URL",
    urlPlaceholder: "https://gitea.example.com",
    defaultUrl: "",
    credentials: [
      { field: "token", label: "Access token", description: "A token of a user who reads the repositories" },
    ],
    secretLabel: "Webhook secret",
  },
  github: {
    label: "GitHub App",
    urlLabel: "GitHub API URL",
    urlPlaceholder: "https://api.github.com",
    defaultUrl: "https://api.github.com",
    credentials: [
      { field: "app_id", label: "App ID" },
      {
        field: "private_key",
        label: "Private key",
        description: "The App's .pem file, as GitHub issued it",
        multiline: true,
      },
    ],
    secretLabel: "Webhook secret",
  },
  gitlab: {
    label: "GitLab",
    urlLabel: "GitLab URL",
    urlPlaceholder: "https://gitlab.com",
    defaultUrl: "https://gitlab.com",
    credentials: [
      {
        field: "token",
        label: "Access token",
        description: "A project or group access token (role Developer, scope api)",
      },
    ],
    secretLabel: "Webhook secret token",
  },
};

const providerLabel = (p: string) => PROVIDERS[p as Provider]?.label ?? p;

function Health({ c }: { c: Connection }) {
  return (
    <Stack gap={2}>
      <Badge color={c.status === "active" ? "teal" : "red"} data-testid="connection-status">
        {c.status === "active" ? "healthy" : "broken"}
      </Badge>
      {c.last_error && (
        <Text size="xs" c="red.8" data-testid="connection-error" style={{ overflowWrap: "anywhere" }}>
          {c.last_error} ({fmtDate(c.last_error_at)})
        </Text>
      )}
    </Stack>
  );
}

/** When the connection's token expires: a date, renewed hourly (a GitHub App), never, or unknown. */
function TokenExpiry({ c }: { c: Connection }) {
  const text =
    c.token_expiry === "expires"
      ? fmtDate(c.token_expires_at)
      : c.token_expiry === "renewed"
        ? "renewed hourly (GitHub App)"
        : c.token_expiry === "none"
          ? "never"
          : "unknown";
  return <span data-testid="token-expiry">{text}</span>;
}

function CreateConnection({ onCreated }: { onCreated: () => void }) {
  const [provider, setProvider] = useState<Provider>("gitea");
  const [baseUrl, setBaseUrl] = useState("");
  const [creds, setCreds] = useState<Record<Credential, string>>({ token: "", app_id: "", private_key: "" });
  const [secret, setSecret] = useState("");
  const [created, setCreated] = useState<Connection | null>(null);
  const form = useSubmit();
  const spec = PROVIDERS[provider];

  const choose = (p: Provider) => {
    setProvider(p);
    setBaseUrl(PROVIDERS[p].defaultUrl);
    form.setFields({});
  };
  const create = async () => {
    setCreated(null);
    const body: Schemas["CreateConnection"] = { provider, base_url: baseUrl, webhook_secret: secret };
    for (const { field } of spec.credentials) body[field] = creds[field];
    const ok = await form.run(async () => {
      try {
        setCreated(await call(api.POST("/v1/integrations/connections", { body })));
      } catch (err) {
        throw onNamedField(err);
      }
    });
    if (ok) {
      // Secrets are write-only: nothing typed stays on the page.
      setCreds({ token: "", app_id: "", private_key: "" });
      setSecret("");
      onCreated();
    }
  };
  return (
    <FormCard
      title="Connect a provider"
      onSubmit={create}
      result={
        created && (
          <Stack gap="xs" mt="md" data-testid="created-connection">
            <Text size="sm">
              Connected. Paste this webhook URL into {providerLabel(created.provider)}, with the same webhook secret:
            </Text>
            <Copyable value={created.events_url} label="webhook URL" testId="created-events-url" />
          </Stack>
        )
      }
    >
      <Stack>
        <SegmentedControl
          aria-label="Provider"
          data={Object.entries(PROVIDERS).map(([value, p]) => ({ value, label: p.label }))}
          value={provider}
          onChange={(v) => choose(v as Provider)}
          w="fit-content"
        />
        <FieldRow cols={2}>
          <TextInput
            label={spec.urlLabel}
            placeholder={spec.urlPlaceholder}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
            error={form.fields.base_url ?? form.fields.provider}
            required
          />
          {spec.credentials
            .filter((c) => !c.multiline)
            .map((c) => {
              const Input = c.field === "token" ? PasswordInput : TextInput;
              return (
                <Input
                  key={c.field}
                  label={c.label}
                  description={c.description}
                  value={creds[c.field]}
                  onChange={(e) => setCreds({ ...creds, [c.field]: e.currentTarget.value })}
                  error={form.fields[c.field]}
                  autoComplete="off"
                  required
                />
              );
            })}
          <PasswordInput
            label={spec.secretLabel}
            description="At least 16 characters; the provider signs its deliveries with it"
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            error={form.fields.webhook_secret}
            autoComplete="new-password"
            required
          />
        </FieldRow>
        {spec.credentials
          .filter((c) => c.multiline)
          .map((c) => (
            <Textarea
              key={c.field}
              label={c.label}
              description={c.description}
              placeholder="-----BEGIN RSA PRIVATE KEY-----"
              value={creds[c.field]}
              onChange={(e) => setCreds({ ...creds, [c.field]: e.currentTarget.value })}
              error={form.fields[c.field]}
              autosize
              minRows={3}
              maxRows={8}
              styles={{ input: { fontFamily: "monospace" } }}
              required
            />
          ))}
        <ErrorAlert error={form.error} />
        <Button type="submit" loading={form.busy} w="fit-content">
          Connect
        </Button>
      </Stack>
    </FormCard>
  );
}

/**
 * The one-click set-up: Verdict makes the App's manifest, the browser posts it to GitHub (the
 * API's form page), GitHub sends the person back to GitHubCallbackPage with a code.
 */
function CreateGitHubApp() {
  const [baseUrl, setBaseUrl] = useState("https://api.github.com");
  const [organization, setOrganization] = useState("");
  const form = useSubmit();
  const start = () =>
    form.run(async () => {
      const body = { base_url: baseUrl, ...(organization ? { organization } : {}) };
      const started = await call(api.POST("/v1/integrations/github/app-manifests", { body }));
      window.location.assign(started.form_url);
    });
  return (
    <FormCard title="Create a GitHub App in one click" onSubmit={start}>
      <Stack>
        <Text size="sm">
          GitHub creates Verdict&apos;s App with the permissions and events it needs, then sends you back here: the App
          becomes a connection, its key and webhook secret kept by Verdict only.
        </Text>
        <FieldRow cols={2}>
          <TextInput
            label="GitHub API URL"
            description="https://api.github.com, or https://HOST/api/v3 for an Enterprise Server"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
            error={form.fields.base_url}
            required
          />
          <TextInput
            label="GitHub organization"
            description="The organization that owns the App; empty: your own account"
            placeholder="acme"
            value={organization}
            onChange={(e) => setOrganization(e.currentTarget.value)}
            error={form.fields.organization}
          />
        </FieldRow>
        <ErrorAlert error={form.error} />
        <Button type="submit" loading={form.busy} w="fit-content">
          Create GitHub App
        </Button>
      </Stack>
    </FormCard>
  );
}

/** Where GitHub sends the person back (?code=…&state=…): the code becomes the connection, once. */
export function GitHubCallbackPage() {
  const [params] = useSearchParams();
  const [result, setResult] = useState<{ connection?: Connection; error?: unknown }>({});
  const sent = useRef(false);
  useEffect(() => {
    // The code and the state work once: asked once, whatever re-renders.
    if (sent.current) return;
    sent.current = true;
    const body = { state: params.get("state") ?? "", code: params.get("code") ?? "" };
    call(api.POST("/v1/integrations/github/app-manifests/conversions", { body })).then(
      (connection) => setResult({ connection }),
      (error: unknown) => setResult({ error }),
    );
  }, [params]);
  return (
    <>
      <PageTitle>GitHub App</PageTitle>
      {!result.connection && !result.error && <Text role="status">Connecting the App GitHub created…</Text>}
      {result.connection && (
        <Alert color="teal" role="status" data-testid="github-app-connected">
          <Text fw={700}>Connected</Text>
          GitHub App {result.connection.app_id} is connected. Install it on the repositories to check (its page on
          GitHub), then connect them on the Repositories page.
        </Alert>
      )}
      <ErrorAlert error={result.error} />
      <Anchor component={Link} to="/connections" mt="md" display="inline-block">
        Back to Connections
      </Anchor>
    </>
  );
}

export function ConnectionsPage() {
  const { session } = useSession();
  const canWrite = !!session && (session.scopes.includes("write:org") || session.scopes.includes("admin"));
  const state = useLoad(() => call(api.GET("/v1/integrations/connections")));
  const remove = useAction(state.reload);
  return (
    <>
      <PageTitle>Connections</PageTitle>
      {canWrite ? (
        <>
          <CreateGitHubApp />
          <CreateConnection onCreated={state.reload} />
        </>
      ) : (
        <Text c="dimmed" mb="md" data-testid="read-only">
          Your role can see the connections; an admin or owner connects and deletes them.
        </Text>
      )}
      <ErrorAlert error={remove.error} />
      <ListTable
        state={state}
        rows={(d) => d.connections}
        empty="No provider connected yet."
        label="Connections"
        rowKey={(c: Connection) => c.id}
        rowProps={(c) => ({ "data-testid": "connection", "data-id": c.id })}
        minWidth={900}
        columns={[
          { label: "Provider", cell: (c) => providerLabel(c.provider) + (c.app_id ? ` (App ${c.app_id})` : "") },
          { label: "Address", cell: (c) => <span style={{ overflowWrap: "anywhere" }}>{c.base_url}</span> },
          { label: "Health", cell: (c) => <Health c={c} /> },
          { label: "Last event", cell: (c) => fmtDate(c.last_event_at) },
          { label: "Token expires", cell: (c) => <TokenExpiry c={c} /> },
          {
            label: "Webhook URL",
            cell: (c) => <Copyable value={c.events_url} label={`webhook URL of ${c.base_url}`} />,
          },
          ...(canWrite
            ? [
                {
                  label: "Actions",
                  actions: true,
                  cell: (c: Connection) => (
                    <ConfirmButton
                      aria-label={`Delete the connection to ${c.base_url}`}
                      title={`Delete the connection to ${c.base_url}?`}
                      message={`Verdict stops checking changes from ${providerLabel(c.provider)} at ${c.base_url}; its deliveries are refused.`}
                      onConfirm={() =>
                        remove.act(() =>
                          call(
                            api.DELETE("/v1/integrations/connections/{connection_id}", {
                              params: { path: { connection_id: c.id } },
                            }),
                          ),
                        )
                      }
                    >
                      Delete
                    </ConfirmButton>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
