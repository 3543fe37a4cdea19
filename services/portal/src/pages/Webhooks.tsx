import { Badge, Button, Card, Checkbox, Group, Stack, Switch, Table, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { ErrorAlert, fmtDate, LoadState, PageTitle, ShownOnce } from "../ui";

const EVENTS = ["evaluation.completed", "policy.violation"] as const;

function Deliveries({ id }: { id: string }) {
  const state = useLoad(
    () => call(api.GET("/v1/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: id } } })),
    [id],
  );
  const [error, setError] = useState<unknown>(null);
  const redeliver = async (delivery: string) => {
    setError(null);
    try {
      await call(
        api.POST("/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
          params: { path: { webhook_id: id, delivery_id: delivery } },
        }),
      );
      state.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Stack gap="xs" mt="sm">
      <ErrorAlert error={error} />
      <LoadState state={state} isEmpty={(d) => d.deliveries.length === 0} empty="No deliveries yet.">
        {(d) => (
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Last response</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.deliveries.map((dl) => {
                  const last = dl.attempts[dl.attempts.length - 1];
                  return (
                    <Table.Tr key={dl.id} data-testid="delivery">
                      <Table.Td>{dl.event}</Table.Td>
                      <Table.Td>
                        <Badge color={dl.status === "succeeded" ? "teal" : dl.status === "failed" ? "red" : "gray"}>
                          {dl.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{dl.attempts.length}</Table.Td>
                      <Table.Td>{last ? `${last.status_code ?? "no response"} · ${last.latency_ms} ms` : "—"}</Table.Td>
                      <Table.Td>
                        <Button size="xs" variant="subtle" onClick={() => void redeliver(dl.id)}>
                          Redeliver
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </LoadState>
    </Stack>
  );
}

export function WebhooksPage() {
  const state = useLoad(() => call(api.GET("/v1/webhooks")));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["evaluation.completed"]);
  const [created, setCreated] = useState<Schemas["CreatedWebhook"] | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<string | null>(null);

  const create = async () => {
    setFields({});
    setError(null);
    setCreated(null);
    try {
      setCreated(await call(api.POST("/v1/webhooks", { body: { url, events: events as never } })));
      setUrl("");
      state.reload();
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.errors?.length) setFields(err.fieldErrors());
      else setError(err);
    }
  };
  const act = async (f: () => Promise<unknown>) => {
    setError(null);
    try {
      await f();
      state.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <Card withBorder mb="lg">
        <Title order={2} size="h4" mb="sm">
          Add an endpoint
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Stack>
            <TextInput
              label="URL"
              placeholder="https://example.com/hooks/verdict"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={fields.url}
            />
            <Checkbox.Group label="Events" value={events} onChange={setEvents} error={fields.events}>
              <Group mt="xs">
                {EVENTS.map((e) => (
                  <Checkbox key={e} value={e} label={e} />
                ))}
              </Group>
            </Checkbox.Group>
            <Button type="submit" w="fit-content">
              Add endpoint
            </Button>
          </Stack>
        </form>
        {created && (
          <Stack mt="md">
            <ShownOnce label="Signing secret" value={created.secret} />
          </Stack>
        )}
      </Card>
      <ErrorAlert error={error} />
      <LoadState state={state} isEmpty={(d) => d.webhooks.length === 0} empty="No webhook endpoints yet.">
        {(d) => (
          <Stack>
            {d.webhooks.map((w) => (
              <Card withBorder key={w.id} data-testid="webhook">
                <Group justify="space-between" wrap="wrap">
                  <Stack gap={2}>
                    <Text fw={500} style={{ wordBreak: "break-all" }}>
                      {w.url}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {w.events.join(", ")} · created {fmtDate(w.created_at)}
                      {w.disabled_reason ? ` · ${w.disabled_reason}` : ""}
                    </Text>
                  </Stack>
                  <Group>
                    <Switch
                      label={w.status === "active" ? "Enabled" : "Disabled"}
                      checked={w.status === "active"}
                      onChange={(e) =>
                        void act(() =>
                          call(
                            api.PATCH("/v1/webhooks/{webhook_id}", {
                              params: { path: { webhook_id: w.id } },
                              body: { status: e.currentTarget.checked ? "active" : "disabled" } as never,
                            }),
                          ),
                        )
                      }
                    />
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        void act(() =>
                          call(api.POST("/v1/webhooks/{webhook_id}/ping", { params: { path: { webhook_id: w.id } } })),
                        )
                      }
                    >
                      Send test
                    </Button>
                    <Button size="xs" variant="subtle" onClick={() => setOpen(open === w.id ? null : w.id)}>
                      {open === w.id ? "Hide deliveries" : "Deliveries"}
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      onClick={() =>
                        void act(() =>
                          call(api.DELETE("/v1/webhooks/{webhook_id}", { params: { path: { webhook_id: w.id } } })),
                        )
                      }
                    >
                      Delete
                    </Button>
                  </Group>
                </Group>
                {open === w.id && <Deliveries id={w.id} />}
              </Card>
            ))}
          </Stack>
        )}
      </LoadState>
    </>
  );
}
