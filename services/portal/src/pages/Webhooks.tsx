import { Badge, Button, Card, Checkbox, Group, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { ConfirmButton, ErrorAlert, fmtDate, FormCard, ListTable, LoadState, PageTitle, ShownOnce } from "../ui";

// Every event a webhook may subscribe to: a Record over the generated union, so `pnpm lint` fails
// here when the API adds one the form does not offer.
const OFFERED: Record<Schemas["CreateWebhook"]["events"][number], true> = {
  "evaluation.completed": true,
  "policy.violation": true,
  "finding.updated": true,
  "connection.broken": true,
  "connection.restored": true,
  "audit.recorded": true,
};
const EVENTS = Object.keys(OFFERED);
type Delivery = Schemas["Delivery"];

function Deliveries({ id }: { id: string }) {
  const state = useLoad(
    () => call(api.GET("/v1/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: id } } })),
    [id],
  );
  const redeliver = useAction(state.reload);
  return (
    <Stack gap="xs" mt="sm">
      <ErrorAlert error={redeliver.error} />
      <ListTable
        state={state}
        rows={(d) => d.deliveries}
        empty="No deliveries yet."
        label="Deliveries"
        rowKey={(dl: Delivery) => dl.id}
        rowProps={() => ({ "data-testid": "delivery" })}
        minWidth={560}
        columns={[
          { label: "Event", cell: (dl) => dl.event },
          {
            label: "Status",
            cell: (dl) => (
              <Badge color={dl.status === "succeeded" ? "teal" : dl.status === "failed" ? "red" : "gray"}>
                {dl.status}
              </Badge>
            ),
          },
          { label: "Attempts", cell: (dl) => dl.attempts.length },
          {
            label: "Last response",
            cell: (dl) => {
              const last = dl.attempts[dl.attempts.length - 1];
              return last ? `${last.status_code ?? "no response"} · ${last.latency_ms} ms` : "—";
            },
          },
          {
            label: "Actions",
            actions: true,
            cell: (dl) => (
              <Button
                size="xs"
                variant="subtle"
                onClick={() =>
                  void redeliver.act(() =>
                    call(
                      api.POST("/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
                        params: { path: { webhook_id: id, delivery_id: dl.id } },
                      }),
                    ),
                  )
                }
              >
                Redeliver
              </Button>
            ),
          },
        ]}
      />
    </Stack>
  );
}

export function WebhooksPage() {
  const state = useLoad(() => call(api.GET("/v1/webhooks")));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["evaluation.completed"]);
  const [created, setCreated] = useState<Schemas["CreatedWebhook"] | null>(null);
  const form = useSubmit();
  const { error, act } = useAction(state.reload);
  const [open, setOpen] = useState<string | null>(null);

  const create = async () => {
    setCreated(null);
    if (
      await form.run(async () =>
        setCreated(await call(api.POST("/v1/webhooks", { body: { url, events: events as never } }))),
      )
    ) {
      setUrl("");
      state.reload();
    }
  };
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <FormCard
        title="Add an endpoint"
        onSubmit={create}
        result={created && <ShownOnce label="Signing secret" value={created.secret} />}
      >
        <Stack>
          <TextInput
            label="URL"
            placeholder="https://example.com/hooks/verdict"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={form.fields.url}
          />
          <Checkbox.Group label="Events" value={events} onChange={setEvents} error={form.fields.events}>
            <Group mt="xs">
              {EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={e} />
              ))}
            </Group>
          </Checkbox.Group>
          <ErrorAlert error={form.error} />
          <Button type="submit" loading={form.busy} w="fit-content">
            Add endpoint
          </Button>
        </Stack>
      </FormCard>
      <ErrorAlert error={error} />
      <LoadState state={state} isEmpty={(d) => d.webhooks.length === 0} empty="No webhook endpoints yet.">
        {(d) => (
          <Stack>
            {d.webhooks.map((w) => (
              <Card withBorder key={w.id} data-testid="webhook">
                <Group justify="space-between" wrap="wrap">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={500} style={{ wordBreak: "break-all" }}>
                      {w.url}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {w.events.join(", ")} · created {fmtDate(w.created_at)}
                      {w.disabled_reason ? ` · ${w.disabled_reason}` : ""}
                    </Text>
                  </Stack>
                  <Group wrap="wrap">
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
                    <Button
                      size="xs"
                      variant="subtle"
                      aria-expanded={open === w.id}
                      onClick={() => setOpen(open === w.id ? null : w.id)}
                    >
                      {open === w.id ? "Hide deliveries" : "Deliveries"}
                    </Button>
                    <ConfirmButton
                      title="Delete this endpoint?"
                      message={`Events stop going to ${w.url}.`}
                      onConfirm={() =>
                        act(() =>
                          call(api.DELETE("/v1/webhooks/{webhook_id}", { params: { path: { webhook_id: w.id } } })),
                        )
                      }
                    >
                      Delete
                    </ConfirmButton>
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
