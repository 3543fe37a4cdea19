import { Badge, Button, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { fieldsUnder, useAction, useLoad, useSubmit } from "../hooks";
import { ConfirmButton, ErrorAlert, FormCard, ListTable, PageTitle, ShownOnce } from "../ui";
import { ScopesField } from "./ApiKeys";

type OAuthClient = Schemas["OAuthClient"];

export function OAuthClientsPage() {
  const state = useLoad(() => call(api.GET("/v1/oauth-clients")));
  const [name, setName] = useState("");
  const [uris, setUris] = useState("");
  const [scopes, setScopes] = useState<string[]>(["read:evaluations"]);
  const [isPublic, setPublic] = useState(false);
  const [created, setCreated] = useState<Schemas["CreatedOAuthClient"] | null>(null);
  const form = useSubmit();
  const remove = useAction(state.reload);
  const create = async () => {
    setCreated(null);
    const redirect_uris = uris.split(/\s+/).filter(Boolean);
    const body = { name, redirect_uris, scopes: scopes as never, public: isPublic };
    if (await form.run(async () => setCreated(await call(api.POST("/v1/oauth-clients", { body }))))) {
      setName("");
      setUris("");
      state.reload();
    }
  };
  return (
    <>
      <PageTitle>OAuth clients</PageTitle>
      <FormCard
        title="Register an application"
        onSubmit={create}
        result={
          created && (
            <Stack mt="md" gap={0}>
              <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                Client id: <code>{created.client_id}</code>
              </Text>
              <ShownOnce label="Client secret" value={created.client_secret} />
            </Stack>
          )
        }
      >
        <Stack>
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={form.fields.name}
          />
          <Textarea
            label="Redirect URIs (one a line)"
            autosize
            minRows={2}
            value={uris}
            onChange={(e) => setUris(e.currentTarget.value)}
            error={fieldsUnder(form.fields, "redirect_uris", true)}
          />
          <ScopesField value={scopes} onChange={setScopes} error={form.fields.scopes} />
          <Switch
            label="Public client (no secret; PKCE only)"
            checked={isPublic}
            onChange={(e) => setPublic(e.currentTarget.checked)}
          />
          <ErrorAlert error={form.error} />
          <Button type="submit" loading={form.busy} w="fit-content">
            Register
          </Button>
        </Stack>
      </FormCard>
      <ErrorAlert error={remove.error} />
      <ListTable
        state={state}
        rows={(d) => d.oauth_clients}
        empty="No OAuth clients yet."
        label="OAuth clients"
        rowKey={(c: OAuthClient) => c.client_id}
        columns={[
          { label: "Name", cell: (c) => c.name },
          {
            label: "Client id",
            cell: (c) => (
              <Text ff="monospace" size="sm">
                {c.client_id}
              </Text>
            ),
          },
          { label: "Type", cell: (c) => <Badge variant="light">{c.public ? "public" : "confidential"}</Badge> },
          { label: "Scopes", cell: (c) => <Text size="xs">{c.scopes.join(", ")}</Text> },
          {
            label: "Actions",
            actions: true,
            cell: (c) => (
              <ConfirmButton
                title={`Delete the application "${c.name}"?`}
                message="The application can no longer use this client id."
                onConfirm={() =>
                  remove.act(() =>
                    call(api.DELETE("/v1/oauth-clients/{client_id}", { params: { path: { client_id: c.client_id } } })),
                  )
                }
              >
                Delete
              </ConfirmButton>
            ),
          },
        ]}
      />
    </>
  );
}
