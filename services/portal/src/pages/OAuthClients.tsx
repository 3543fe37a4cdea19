import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { ErrorAlert, LoadState, PageTitle, ShownOnce } from "../ui";

const SCOPES = [
  "read:evaluations",
  "write:evaluations",
  "read:policies",
  "write:policies",
  "read:org",
  "write:org",
  "admin",
];

export function OAuthClientsPage() {
  const state = useLoad(() => call(api.GET("/v1/oauth-clients")));
  const [name, setName] = useState("");
  const [uris, setUris] = useState("");
  const [scopes, setScopes] = useState<string[]>(["read:evaluations"]);
  const [isPublic, setPublic] = useState(false);
  const [created, setCreated] = useState<Schemas["CreatedOAuthClient"] | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const create = async () => {
    setFields({});
    setError(null);
    setCreated(null);
    try {
      const redirect_uris = uris.split(/\s+/).filter(Boolean);
      setCreated(
        await call(
          api.POST("/v1/oauth-clients", { body: { name, redirect_uris, scopes: scopes as never, public: isPublic } }),
        ),
      );
      setName("");
      setUris("");
      state.reload();
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.errors?.length) setFields(err.fieldErrors());
      else setError(err);
    }
  };
  const uriError = Object.entries(fields)
    .filter(([f]) => f.startsWith("redirect_uris"))
    .map(([f, m]) => `${f}: ${m}`)
    .join("; ");
  return (
    <>
      <PageTitle>OAuth clients</PageTitle>
      <Card withBorder mb="lg">
        <Title order={2} size="h4" mb="sm">
          Register an application
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Stack>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} />
            <Textarea
              label="Redirect URIs (one a line)"
              autosize
              minRows={2}
              value={uris}
              onChange={(e) => setUris(e.currentTarget.value)}
              error={uriError || undefined}
            />
            <Checkbox.Group label="Scopes" value={scopes} onChange={setScopes} error={fields.scopes}>
              <Group mt="xs" wrap="wrap">
                {SCOPES.map((s) => (
                  <Checkbox key={s} value={s} label={s} />
                ))}
              </Group>
            </Checkbox.Group>
            <Switch
              label="Public client (no secret; PKCE only)"
              checked={isPublic}
              onChange={(e) => setPublic(e.currentTarget.checked)}
            />
            <ErrorAlert error={error} />
            <Button type="submit" w="fit-content">
              Register
            </Button>
          </Stack>
        </form>
        {created && (
          <Stack mt="md">
            <Text size="sm">
              Client id: <code>{created.client_id}</code>
            </Text>
            {created.client_secret && <ShownOnce label="Client secret" value={created.client_secret} />}
          </Stack>
        )}
      </Card>
      <LoadState state={state} isEmpty={(d) => d.oauth_clients.length === 0} empty="No OAuth clients yet.">
        {(d) => (
          <Table.ScrollContainer minWidth={600}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Client id</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.oauth_clients.map((c) => (
                  <Table.Tr key={c.client_id}>
                    <Table.Td>{c.name}</Table.Td>
                    <Table.Td ff="monospace">{c.client_id}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{c.public ? "public" : "confidential"}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{c.scopes.join(", ")}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() =>
                          call(
                            api.DELETE("/v1/oauth-clients/{client_id}", {
                              params: { path: { client_id: c.client_id } },
                            }),
                          ).then(state.reload, setError)
                        }
                      >
                        Delete
                      </Button>
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
