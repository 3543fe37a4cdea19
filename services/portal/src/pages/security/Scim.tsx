// SCIM provisioning: the tokens an identity provider provisions with (on plans that have SCIM).
import { Button, Code, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../../api";
import { useAction, useLoad, useSubmit } from "../../hooks";
import { ConfirmButton, ErrorAlert, fmtDate, Form, ListTable, LoadState, Section, ShownOnce } from "../../ui";

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

/** SCIM tokens for the identity provider; on plans without SCIM, what it would take. */
export function ScimTokens() {
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
