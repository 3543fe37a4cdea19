// Security settings as independent sections (two-step sign-in, passkeys, the organization's
// require-MFA): SSO connections and SCIM tokens are further sections of this page.
import {
  Badge,
  Button,
  Code,
  Group,
  List,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import { startRegistration } from "@simplewebauthn/browser";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../api";
import { fieldsUnder, useAction, useLoad, useSubmit } from "../hooks";
import { useSession } from "../session";
import { ChangePassword } from "./Account";
import {
  ConfirmButton,
  DataTable,
  ErrorAlert,
  fmtDate,
  Form,
  ListTable,
  LoadState,
  PageTitle,
  Section,
  ShownOnce,
} from "../ui";

function RecoveryCodes({ codes }: { codes: string[] }) {
  if (!codes.length) return null;
  return (
    <Stack gap="xs" data-testid="recovery-codes">
      <ShownOnce label="Recovery codes" value={codes.join("\n")} mt="0" />
      <List size="sm" ff="monospace">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

function Totp() {
  const { session, setSession } = useSession();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[]>([]);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setError(null);
    try {
      setEnrolment(await call(api.POST("/auth/mfa/totp/enrolment")));
    } catch (err) {
      setError(err);
    }
  };
  const confirm = async () => {
    setError(null);
    setFieldError(undefined);
    try {
      const r = await call(api.POST("/auth/mfa/totp/enrolment/confirm", { body: { code: code.trim() } }));
      setCodes(r.recovery_codes);
      setEnrolment(null);
      setSession(r.session);
    } catch (err) {
      if (err instanceof ApiFailure && (err.status === 401 || err.body.details?.errors?.length))
        setFieldError(err.fieldErrors().code ?? err.body.message);
      else setError(err);
    }
  };
  return (
    <Section title="Authenticator app (TOTP)">
      <Stack>
        <Text size="sm">
          Two-step sign-in is <b data-testid="mfa-state">{session?.user.mfa_enabled ? "on" : "off"}</b> for you.
        </Text>
        {!enrolment && (
          <Button w="fit-content" variant="default" onClick={() => void start()}>
            Set up an authenticator app
          </Button>
        )}
        {enrolment && (
          <Form onSubmit={confirm}>
            <Stack>
              <Text size="sm">
                Enter this secret in your authenticator app (or open the otpauth link on your phone):
              </Text>
              <Code data-testid="totp-secret" style={{ overflowWrap: "anywhere" }}>
                {enrolment.secret}
              </Code>
              <TextInput
                label="First code from the app"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={fieldError}
                maw={240}
              />
              <Button type="submit" w="fit-content">
                Confirm
              </Button>
            </Stack>
          </Form>
        )}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

type Passkey = Schemas["Passkey"];

const DEVICE_TYPES: Record<Passkey["device_type"], string> = {
  singleDevice: "This device only",
  multiDevice: "Synced",
  unknown: "Unknown",
};

/** One passkey's row: rename in place, delete after a confirmation. */
function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: () => void }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const path = { params: { path: { credential_id: passkey.id } } };
  const rename = async () => {
    setError(null);
    setFieldError(undefined);
    try {
      await call(
        api.PATCH("/auth/webauthn/credentials/{credential_id}", {
          ...path,
          body: { name: renaming ?? "", version: passkey.version },
        }),
      );
      setRenaming(null);
      onChanged();
    } catch (err) {
      if (err instanceof ApiFailure && err.fieldErrors().name) setFieldError(err.fieldErrors().name);
      else setError(err);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      // The version this row shows: another tab's rename since then answers 412, not a silent delete.
      await call(
        api.DELETE("/auth/webauthn/credentials/{credential_id}", {
          params: { ...path.params, header: { "If-Match": `W/"${passkey.version}"` } },
        }),
      );
      onChanged();
    } catch (err) {
      setConfirming(false);
      setError(err);
    }
  };
  return (
    <Table.Tr data-testid={`passkey-${passkey.name}`}>
      <Table.Td>
        {renaming === null ? (
          passkey.name
        ) : (
          <TextInput
            aria-label="New name"
            value={renaming}
            onChange={(e) => setRenaming(e.currentTarget.value)}
            error={fieldError}
            size="xs"
          />
        )}
        <ErrorAlert error={error} />
      </Table.Td>
      <Table.Td>{fmtDate(passkey.created_at)}</Table.Td>
      <Table.Td>{passkey.last_used_at ? fmtDate(passkey.last_used_at) : "Never"}</Table.Td>
      <Table.Td>
        {DEVICE_TYPES[passkey.device_type]}
        {passkey.backed_up ? " · backed up" : ""}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {renaming === null ? (
            <Button size="xs" variant="default" onClick={() => setRenaming(passkey.name)}>
              Rename
            </Button>
          ) : (
            <>
              <Button size="xs" onClick={() => void rename()}>
                Save
              </Button>
              <Button size="xs" variant="default" onClick={() => setRenaming(null)}>
                Cancel
              </Button>
            </>
          )}
          {confirming ? (
            <>
              <Button size="xs" color="red" onClick={() => void remove()}>
                Delete {passkey.name}
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          ) : (
            <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function Passkeys() {
  const { setSession } = useSession();
  const list = useLoad(() => call(api.GET("/auth/webauthn/credentials")));
  const [name, setName] = useState("");
  const [codes, setCodes] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const add = async () => {
    setError(null);
    setDone(false);
    try {
      const { options } = await call(api.POST("/auth/webauthn/registration/options"));
      const response = await startRegistration({ optionsJSON: options as never });
      const r = await call(
        api.POST("/auth/webauthn/registration/verify", {
          body: { response: response as never, ...(name ? { name } : {}) },
        }),
      );
      setCodes(r.recovery_codes);
      setSession(r.session);
      setDone(true);
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title="Passkeys">
      <Stack>
        <LoadState
          state={list}
          isEmpty={(l) => l.passkeys.length === 0}
          empty={<>No passkeys yet: add one to sign in with your device instead of a code.</>}
        >
          {(l) => (
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {l.passkeys.map((p) => (
                    <PasskeyRow key={p.id} passkey={p} onChanged={list.reload} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </LoadState>
        <Group align="end" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="laptop, YubiKey…"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Button onClick={() => void add()}>Add a passkey</Button>
        </Group>
        {done && <Text c="var(--mantine-color-teal-light-color)">Passkey added.</Text>}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

function RequireMfa() {
  const state = useLoad(() => call(api.GET("/v1/organization")));
  const [error, setError] = useState<unknown>(null);
  return (
    <Section title="Organization policy">
      <LoadState state={state}>
        {(org) => (
          <Stack>
            <Switch
              label="Require two-step sign-in for every member"
              checked={org.settings.require_mfa}
              onChange={(e) => {
                const require_mfa = e.currentTarget.checked;
                setError(null);
                call(api.PATCH("/v1/organization", { body: { settings: { require_mfa } } })).then(
                  state.reload,
                  setError,
                );
              }}
            />
            <Text size="xs" c="dimmed">
              Members without a second factor must enrol one before anything else.
            </Text>
            <ErrorAlert error={error} />
          </Stack>
        )}
      </LoadState>
    </Section>
  );
}

const SCIM_PLANS = ["business", "enterprise"];
const EXPIRIES = [
  { value: "never", label: "Never" },
  { value: "90d", label: "90 days" },
  { value: "7d", label: "7 days" },
  { value: "24h", label: "24 hours" },
  { value: "30m", label: "30 minutes" },
];

type ScimToken = Schemas["ScimToken"];

function ScimTokenList({ plan }: { plan: string }) {
  const state = useLoad(() => call(api.GET("/v1/scim-tokens")));
  const [name, setName] = useState("");
  const [expiration, setExpiration] = useState("never");
  const [created, setCreated] = useState<string | null>(null);
  const form = useSubmit();
  const { fields } = form;
  const remove = useAction(state.reload);
  const create = async () => {
    setCreated(null);
    const body = { name, expiration: expiration as "never" | "90d" | "7d" | "24h" | "30m" };
    if (await form.run(async () => setCreated((await call(api.POST("/v1/scim-tokens", { body }))).token))) {
      setName("");
      state.reload();
    }
  };
  return (
    <Stack>
      <Text size="sm">
        Your identity provider creates, updates and deactivates members through{" "}
        <Code style={{ overflowWrap: "anywhere" }}>{`${window.location.origin}/scim/v2`}</Code> with one of these tokens
        (plan {plan}).
      </Text>
      <Form onSubmit={create}>
        <Group align="end" wrap="wrap">
          <TextInput
            label="Identity provider"
            placeholder="Okta"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fields.name}
          />
          <Select
            label="Token expires after"
            data={EXPIRIES}
            value={expiration}
            onChange={(v) => setExpiration(v ?? "never")}
            allowDeselect={false}
            error={fields.expiration}
            w={160}
          />
          <Button type="submit" loading={form.busy}>
            Create SCIM token
          </Button>
        </Group>
      </Form>
      <ShownOnce label="SCIM token" value={created} mt="0" />
      <ErrorAlert error={form.error ?? remove.error} />
      <ListTable
        state={state}
        rows={(d) => d.scim_tokens}
        empty="No SCIM tokens yet."
        label="SCIM tokens"
        rowKey={(t: ScimToken) => t.id}
        rowProps={() => ({ "data-testid": "scim-token" })}
        minWidth={520}
        columns={[
          { label: "Name", cell: (t) => t.name },
          { label: "Prefix", cell: (t) => <Text ff="monospace" size="sm">{`${t.prefix}…`}</Text> },
          { label: "Last used", cell: (t) => fmtDate(t.last_used_at) },
          { label: "Expires", cell: (t) => (t.expires_at ? fmtDate(t.expires_at) : "never") },
          {
            label: "Actions",
            actions: true,
            cell: (t) => (
              <ConfirmButton
                aria-label={`Delete SCIM token ${t.name}`}
                title={`Delete the SCIM token "${t.name}"?`}
                message="The identity provider can no longer provision members with it."
                onConfirm={() =>
                  remove.act(() =>
                    call(api.DELETE("/v1/scim-tokens/{token_id}", { params: { path: { token_id: t.id } } })),
                  )
                }
              >
                Delete
              </ConfirmButton>
            ),
          },
        ]}
      />
    </Stack>
  );
}

const SSO_PLANS = ["team", "business", "enterprise"];
type Sso = Schemas["SsoConnection"];

/** The SSO connection form (OIDC or SAML 2.0), its domains with their verification state. */
function SsoForm({ current, onSaved }: { current: Sso | null; onSaved: () => void }) {
  const [type, setType] = useState<"oidc" | "saml">(current?.type ?? "oidc");
  const [issuer, setIssuer] = useState(current?.issuer ?? "");
  const [clientId, setClientId] = useState(current?.client_id ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [metadataUrl, setMetadataUrl] = useState(current?.idp_metadata_url ?? "");
  const [entityId, setEntityId] = useState(current?.idp_entity_id ?? "");
  const [ssoUrl, setSsoUrl] = useState(current?.idp_sso_url ?? "");
  const [certificate, setCertificate] = useState("");
  const [domains, setDomains] = useState((current?.domains ?? []).map((d) => d.domain).join("\n"));
  const [role, setRole] = useState<Sso["default_role"]>(current?.default_role ?? "member");
  const [enforce, setEnforce] = useState(current?.enforce ?? false);
  const { fields, error, busy, run } = useSubmit();
  const [saved, setSaved] = useState(false);
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  const save = async () => {
    setSaved(false);
    const common = {
      type,
      domains: domains.split(/[\s,]+/).filter(Boolean),
      default_role: role,
      enforce,
    };
    const body =
      type === "oidc"
        ? { ...common, issuer: opt(issuer), client_id: opt(clientId), client_secret: opt(clientSecret) }
        : {
            ...common,
            idp_metadata_url: opt(metadataUrl),
            idp_entity_id: opt(entityId),
            idp_sso_url: opt(ssoUrl),
            idp_certificate: opt(certificate),
          };
    if (await run(() => call(api.PUT("/v1/organization/sso", { body: body as Schemas["PutSsoConnection"] })))) {
      setClientSecret("");
      setSaved(true);
      onSaved();
    }
  };
  return (
    <Form onSubmit={save}>
      <Stack maw={560}>
        <SegmentedControl
          aria-label="Protocol"
          value={type}
          onChange={(v) => setType(v as "oidc" | "saml")}
          data={[
            { value: "oidc", label: "OpenID Connect" },
            { value: "saml", label: "SAML 2.0" },
          ]}
          w="fit-content"
        />
        {type === "oidc" ? (
          <>
            <TextInput
              label="Issuer"
              placeholder="https://idp.example.com/realms/acme"
              value={issuer}
              onChange={(e) => setIssuer(e.currentTarget.value)}
              error={fields.issuer}
            />
            <TextInput
              label="Client id"
              value={clientId}
              onChange={(e) => setClientId(e.currentTarget.value)}
              error={fields.client_id}
            />
            <TextInput
              label="Client secret"
              type="password"
              description={current?.client_secret_set ? "Set; leave empty to keep it" : undefined}
              value={clientSecret}
              onChange={(e) => setClientSecret(e.currentTarget.value)}
              error={fields.client_secret}
            />
          </>
        ) : (
          <>
            <TextInput
              label="IdP metadata URL"
              value={metadataUrl}
              onChange={(e) => setMetadataUrl(e.currentTarget.value)}
              error={fields.idp_metadata_url}
            />
            <TextInput
              label="IdP entity id"
              value={entityId}
              onChange={(e) => setEntityId(e.currentTarget.value)}
              error={fields.idp_entity_id}
            />
            <TextInput
              label="IdP sign-in URL"
              value={ssoUrl}
              onChange={(e) => setSsoUrl(e.currentTarget.value)}
              error={fields.idp_sso_url}
            />
            <Textarea
              label="IdP signing certificate (PEM)"
              autosize
              minRows={2}
              value={certificate}
              onChange={(e) => setCertificate(e.currentTarget.value)}
              error={fields.idp_certificate}
            />
          </>
        )}
        <Textarea
          label="Email domains (one a line)"
          autosize
          minRows={2}
          value={domains}
          onChange={(e) => setDomains(e.currentTarget.value)}
          error={fieldsUnder(fields, "domains", true)}
        />
        <Select
          label="Role of people who join through SSO"
          data={["viewer", "member", "admin"]}
          value={role}
          onChange={(v) => setRole((v ?? "member") as Sso["default_role"])}
          allowDeselect={false}
          error={fields.default_role}
          maw={300}
        />
        <Switch
          label="Enforce SSO (no password sign-in for these domains)"
          checked={enforce}
          onChange={(e) => setEnforce(e.currentTarget.checked)}
        />
        <ErrorAlert error={error} />
        <Button type="submit" loading={busy} w="fit-content">
          Save connection
        </Button>
        {saved && <Text c="var(--mantine-color-teal-light-color)">Connection saved.</Text>}
      </Stack>
    </Form>
  );
}

function SsoConnection() {
  const state = useLoad(async (): Promise<Sso | null> => {
    try {
      return await call(api.GET("/v1/organization/sso"));
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 404) return null;
      throw err;
    }
  });
  return (
    <LoadState state={state}>
      {(c) => (
        <Stack>
          {c && c.domains.length > 0 && (
            <DataTable
              rows={c.domains}
              rowKey={(d) => d.domain}
              rowProps={() => ({ "data-testid": "sso-domain" })}
              label="Email domains"
              minWidth={520}
              columns={[
                { label: "Domain", cell: (d) => d.domain },
                {
                  label: "State",
                  cell: (d) => (
                    <Badge color={d.verified ? "teal" : "yellow"} variant="light">
                      {d.verified ? "verified" : "waiting for verification"}
                    </Badge>
                  ),
                },
                {
                  label: "DNS TXT record to publish",
                  cell: (d) => (
                    <Code style={{ wordBreak: "break-all" }}>verdict-domain-verification={d.verification_token}</Code>
                  ),
                },
              ]}
            />
          )}
          {c && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
              For the identity provider: redirect URI <Code>{c.sp.oidc_redirect_uri}</Code>, SAML ACS{" "}
              <Code>{c.sp.saml_acs_url}</Code>, SAML entity id <Code>{c.sp.saml_entity_id}</Code>. The instance operator
              verifies a domain once its TXT record is published.
            </Text>
          )}
          <SsoForm current={c} onSaved={state.reload} />
        </Stack>
      )}
    </LoadState>
  );
}

function Sso() {
  const org = useLoad(() => call(api.GET("/v1/organization")));
  return (
    <Section title="Single sign-on (SSO)">
      <LoadState state={org}>
        {(o) =>
          SSO_PLANS.includes(o.plan) ? (
            <SsoConnection />
          ) : (
            <Text size="sm" data-testid="sso-unavailable">
              Single sign-on is on the Team, Business and Enterprise plans; this organization is on the {o.plan} plan.
            </Text>
          )
        }
      </LoadState>
    </Section>
  );
}

/** SCIM tokens for the identity provider; on plans without SCIM, what it would take. */
function ScimTokens() {
  const org = useLoad(() => call(api.GET("/v1/organization")));
  return (
    <Section title="SCIM provisioning">
      <LoadState state={org}>
        {(o) =>
          SCIM_PLANS.includes(o.plan) ? (
            <ScimTokenList plan={o.plan} />
          ) : (
            <Text size="sm" data-testid="scim-unavailable">
              SCIM provisioning is on the Business and Enterprise plans; this organization is on the {o.plan} plan.
            </Text>
          )
        }
      </LoadState>
    </Section>
  );
}

export function SecurityPage() {
  return (
    <>
      <PageTitle>Security</PageTitle>
      <Stack>
        <ChangePassword />
        <Totp />
        <Passkeys />
        <RequireMfa />
        <Sso />
        <ScimTokens />
      </Stack>
    </>
  );
}
