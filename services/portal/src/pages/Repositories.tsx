import { Anchor, Button, Card, Group, Select, Table, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { api, ApiFailure, call } from "../api";
import { useLoad } from "../hooks";
import { ErrorAlert, fmtDate, LoadState, PageTitle } from "../ui";

const PROVIDERS = ["github", "gitlab", "bitbucket", "azure-devops", "generic"] as const;

export function RepositoriesPage() {
  const state = useLoad(() => call(api.GET("/v1/repositories")));
  const [name, setName] = useState("");
  const [provider, setProvider] = useState<(typeof PROVIDERS)[number]>("github");
  const [branch, setBranch] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const connect = async () => {
    setFields({});
    setError(null);
    try {
      await call(
        api.POST("/v1/repositories", { body: { name, provider, ...(branch ? { default_branch: branch } : {}) } }),
      );
      setName("");
      setBranch("");
      state.reload();
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.errors?.length) setFields(err.fieldErrors());
      else setError(err);
    }
  };
  return (
    <>
      <PageTitle>Repositories</PageTitle>
      <Card withBorder mb="lg">
        <Title order={2} size="h4" mb="sm">
          Connect a repository
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void connect();
          }}
        >
          <Group align="start" wrap="wrap">
            <TextInput
              label="Name"
              placeholder="acme/payments"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fields.name}
            />
            <Select
              label="Provider"
              data={[...PROVIDERS]}
              value={provider}
              onChange={(v) => setProvider((v ?? "github") as typeof provider)}
              allowDeselect={false}
              w={160}
            />
            <TextInput
              label="Default branch"
              placeholder="main"
              value={branch}
              onChange={(e) => setBranch(e.currentTarget.value)}
              error={fields.default_branch}
            />
            <Button type="submit" mt={25}>
              Connect
            </Button>
          </Group>
        </form>
      </Card>
      <ErrorAlert error={error} />
      <LoadState state={state} isEmpty={(d) => d.repositories.length === 0} empty="No repositories connected yet.">
        {(d) => (
          <Table.ScrollContainer minWidth={600}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Repository</Table.Th>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th>Default branch</Table.Th>
                  <Table.Th>Last evaluation</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.repositories.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/evaluations?repository=${encodeURIComponent(r.name)}`}>
                        {r.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{r.provider}</Table.Td>
                    <Table.Td>{r.default_branch}</Table.Td>
                    <Table.Td>{fmtDate(r.last_evaluation)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() =>
                          call(
                            api.DELETE("/v1/repositories/{repository_id}", {
                              params: { path: { repository_id: r.id } },
                            }),
                          ).then(state.reload, setError)
                        }
                      >
                        Disconnect
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
