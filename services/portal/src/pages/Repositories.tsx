import { Anchor, Button, Select, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { api, call, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { ConfirmButton, ErrorAlert, FieldRow, fmtDate, FormCard, ListTable, PageTitle } from "../ui";

const PROVIDERS = ["github", "gitlab", "bitbucket", "azure-devops", "generic"] as const;
type Repository = Schemas["Repository"];

export function RepositoriesPage() {
  const state = useLoad(() => call(api.GET("/v1/repositories")));
  const [name, setName] = useState("");
  const [provider, setProvider] = useState<(typeof PROVIDERS)[number]>("github");
  const [branch, setBranch] = useState("");
  const form = useSubmit();
  const disconnect = useAction(state.reload);
  const connect = async () => {
    const body = { name, provider, ...(branch ? { default_branch: branch } : {}) };
    if (await form.run(() => call(api.POST("/v1/repositories", { body })))) {
      setName("");
      setBranch("");
      state.reload();
    }
  };
  return (
    <>
      <PageTitle>Repositories</PageTitle>
      <FormCard title="Connect a repository" onSubmit={connect}>
        <Stack>
          <FieldRow cols={3}>
            <TextInput
              label="Name"
              placeholder="acme/payments"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={form.fields.name}
            />
            <Select
              label="Provider"
              data={[...PROVIDERS]}
              value={provider}
              onChange={(v) => setProvider((v ?? "github") as typeof provider)}
              allowDeselect={false}
            />
            <TextInput
              label="Default branch"
              placeholder="main"
              value={branch}
              onChange={(e) => setBranch(e.currentTarget.value)}
              error={form.fields.default_branch}
            />
          </FieldRow>
          <ErrorAlert error={form.error} />
          <Button type="submit" loading={form.busy} w="fit-content">
            Connect
          </Button>
        </Stack>
      </FormCard>
      <ErrorAlert error={disconnect.error} />
      <ListTable
        state={state}
        rows={(d) => d.repositories}
        empty="No repositories connected yet."
        label="Repositories"
        rowKey={(r: Repository) => r.id}
        columns={[
          {
            label: "Repository",
            cell: (r) => (
              <Anchor component={Link} to={`/evaluations?repository=${encodeURIComponent(r.name)}`}>
                {r.name}
              </Anchor>
            ),
          },
          { label: "Provider", cell: (r) => r.provider },
          { label: "Default branch", cell: (r) => r.default_branch },
          { label: "Last evaluation", cell: (r) => fmtDate(r.last_evaluation) },
          {
            label: "Actions",
            actions: true,
            cell: (r) => (
              <ConfirmButton
                aria-label={`Disconnect ${r.name}`}
                title={`Disconnect ${r.name}?`}
                message="It leaves the list of connected repositories."
                onConfirm={() =>
                  disconnect.act(() =>
                    call(api.DELETE("/v1/repositories/{repository_id}", { params: { path: { repository_id: r.id } } })),
                  )
                }
              >
                Disconnect
              </ConfirmButton>
            ),
          },
        ]}
      />
    </>
  );
}
