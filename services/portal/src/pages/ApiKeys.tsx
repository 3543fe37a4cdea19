import { Badge, Button, Checkbox, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { API_SCOPES } from "@verdict/sdk/gen/scopes";
import { fieldsUnder, useAction, useLoad, useSubmit } from "../hooks";
import { ConfirmButton, ErrorAlert, FieldRow, fmtDate, FormCard, ListTable, PageTitle, ShownOnce } from "../ui";

const EXPIRATIONS = [
  { value: "30m", label: "30 minutes" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "90d", label: "90 days" },
  { value: "never", label: "Never" },
];

/** The scopes as checkboxes (API keys and OAuth clients). */
export function ScopesField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  error?: string | undefined;
}) {
  return (
    <Checkbox.Group label="Scopes" value={value} onChange={onChange} error={error}>
      <Group mt="xs" wrap="wrap">
        {API_SCOPES.map((s) => (
          <Checkbox key={s} value={s} label={s} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

type ApiKey = Schemas["ApiKey"];

export function ApiKeysPage() {
  const state = useLoad(() => call(api.GET("/v1/api-keys")));
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["read:evaluations"]);
  const [expiration, setExpiration] = useState("90d");
  const [allowlist, setAllowlist] = useState("");
  const [created, setCreated] = useState<Schemas["CreatedApiKey"] | null>(null);
  const form = useSubmit();
  const revoke = useAction(state.reload);

  const create = async () => {
    setCreated(null);
    const ok = await form.run(async () => {
      setCreated(
        await call(
          api.POST("/v1/api-keys", {
            body: {
              name,
              scopes: scopes as never,
              expiration: expiration as "90d",
              ...(allowlist.trim() ? { ip_allowlist: allowlist.trim() } : {}),
            },
          }),
        ),
      );
    });
    if (ok) {
      setName("");
      state.reload();
    }
  };
  const { fields } = form;

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <FormCard
        title="Create a key"
        onSubmit={create}
        result={created && <ShownOnce label={`Key "${created.name}"`} value={created.key} />}
      >
        <Stack>
          <FieldRow cols={3}>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} />
            <Select
              label="Expires after"
              data={EXPIRATIONS}
              value={expiration}
              onChange={(v) => setExpiration(v ?? "90d")}
              allowDeselect={false}
              error={fields.expiration}
            />
            <TextInput
              label="IP allowlist"
              description="Comma-separated CIDRs; empty: your own allowlist"
              inputWrapperOrder={["label", "input", "description", "error"]}
              placeholder="10.0.0.0/8, 192.168.1.7"
              value={allowlist}
              onChange={(e) => setAllowlist(e.currentTarget.value)}
              error={fields.ip_allowlist}
            />
          </FieldRow>
          <ScopesField value={scopes} onChange={setScopes} error={fieldsUnder(fields, "scopes")} />
          <ErrorAlert error={form.error} />
          <Button type="submit" loading={form.busy} w="fit-content">
            Create key
          </Button>
        </Stack>
      </FormCard>
      <ErrorAlert error={revoke.error} />
      <ListTable
        state={state}
        rows={(d) => d.api_keys}
        empty="No API keys yet."
        label="API keys"
        rowKey={(k: ApiKey) => k.id}
        minWidth={720}
        columns={[
          { label: "Name", cell: (k) => k.name },
          { label: "Key", cell: (k) => <Text ff="monospace" size="sm">{`${k.prefix}…`}</Text> },
          { label: "Scopes", cell: (k) => <Text size="xs">{k.scopes.join(", ")}</Text> },
          { label: "Status", cell: (k) => <Badge color={k.status === "active" ? "teal" : "gray"}>{k.status}</Badge> },
          { label: "Expires", cell: (k) => (k.expires_at ? fmtDate(k.expires_at) : "never") },
          { label: "Last used", cell: (k) => fmtDate(k.last_used_at) },
          {
            label: "Actions",
            actions: true,
            cell: (k) =>
              k.status === "active" && (
                <ConfirmButton
                  aria-label={`Revoke ${k.name}`}
                  title={`Revoke the key "${k.name}"?`}
                  message="Requests with this key are refused from now on. This cannot be undone."
                  onConfirm={() =>
                    revoke.act(() => call(api.DELETE("/v1/api-keys/{key_id}", { params: { path: { key_id: k.id } } })))
                  }
                >
                  Revoke
                </ConfirmButton>
              ),
          },
        ]}
      />
    </>
  );
}
