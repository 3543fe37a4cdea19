import { Badge, Button, Card, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { ErrorAlert, fmtDate, LoadState, PageTitle, ShownOnce } from "../ui";

const SCOPES = [
  "read:evaluations",
  "write:evaluations",
  "read:policies",
  "write:policies",
  "read:org",
  "write:org",
  "admin",
];
const EXPIRATIONS = [
  { value: "30m", label: "30 minutes" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "90d", label: "90 days" },
  { value: "never", label: "Never" },
];

export function ApiKeysPage() {
  const state = useLoad(() => call(api.GET("/v1/api-keys")));
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["read:evaluations"]);
  const [expiration, setExpiration] = useState("90d");
  const [allowlist, setAllowlist] = useState("");
  const [created, setCreated] = useState<Schemas["CreatedApiKey"] | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    setFields({});
    setError(null);
    setCreated(null);
    try {
      const key = await call(
        api.POST("/v1/api-keys", {
          body: {
            name,
            scopes: scopes as never,
            expiration: expiration as "90d",
            ...(allowlist.trim() ? { ip_allowlist: allowlist.trim() } : {}),
          },
        }),
      );
      setCreated(key);
      setName("");
      state.reload();
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.errors?.length) setFields(err.fieldErrors());
      else setError(err);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await call(api.DELETE("/v1/api-keys/{key_id}", { params: { path: { key_id: id } } }));
      state.reload();
    } catch (err) {
      setError(err);
    }
  };
  const scopeError = Object.entries(fields)
    .filter(([f]) => f.startsWith("scopes"))
    .map(([, m]) => m)
    .join("; ");

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <Card withBorder mb="lg">
        <Title order={2} size="h4" mb="sm">
          Create a key
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Stack>
            <Group grow wrap="wrap" align="start">
              <TextInput
                label="Name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={fields.name}
              />
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
                placeholder="10.0.0.0/8, 192.168.1.7"
                value={allowlist}
                onChange={(e) => setAllowlist(e.currentTarget.value)}
                error={fields.ip_allowlist}
              />
            </Group>
            <Checkbox.Group label="Scopes" value={scopes} onChange={setScopes} error={scopeError || undefined}>
              <Group mt="xs" wrap="wrap">
                {SCOPES.map((s) => (
                  <Checkbox key={s} value={s} label={s} />
                ))}
              </Group>
            </Checkbox.Group>
            <ErrorAlert error={error} />
            <Button type="submit" loading={busy} w="fit-content">
              Create key
            </Button>
          </Stack>
        </form>
        {created && (
          <Stack mt="md">
            <ShownOnce label={`Key "${created.name}"`} value={created.key} />
          </Stack>
        )}
      </Card>
      <LoadState state={state} isEmpty={(d) => d.api_keys.length === 0} empty="No API keys yet.">
        {(d) => (
          <Table.ScrollContainer minWidth={720}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.api_keys.map((k) => (
                  <Table.Tr key={k.id}>
                    <Table.Td>{k.name}</Table.Td>
                    <Table.Td ff="monospace">{k.prefix}…</Table.Td>
                    <Table.Td>
                      <Text size="xs">{k.scopes.join(", ")}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={k.status === "active" ? "teal" : "gray"}>{k.status}</Badge>
                    </Table.Td>
                    <Table.Td>{k.expires_at ? fmtDate(k.expires_at) : "never"}</Table.Td>
                    <Table.Td>{fmtDate(k.last_used_at)}</Table.Td>
                    <Table.Td>
                      {k.status === "active" && (
                        <Button
                          size="xs"
                          color="red"
                          variant="subtle"
                          onClick={() => void revoke(k.id)}
                          aria-label={`Revoke ${k.name}`}
                        >
                          Revoke
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </LoadState>
    </>
  );
}
