// Single sign-on: the organization's OIDC or SAML connection and its claimed domains (on plans that have SSO).
import { Badge, Button, Code, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../../api";
import { fieldsUnder, useLoad, useSubmit } from "../../hooks";
import { DataTable, ErrorAlert, Form, LoadState, Section } from "../../ui";

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

export function Sso() {
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
