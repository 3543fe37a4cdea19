import { Code, Group, Text } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { useCursorPages, useLoad } from "../hooks";
import { DataTable, FilterField, fmtDate, LoadState, PageTitle, Pager } from "../ui";

type AuditEvent = Schemas["AuditEvent"];

export function AuditPage() {
  const [actor, setActor] = useState("");
  const [filter, setFilter] = useState("");
  const [cursor, setCursor] = useState<string | undefined>();
  const pages = useCursorPages(cursor, setCursor);
  const state = useLoad(
    () =>
      call(
        api.GET("/v1/audit-events", {
          params: {
            query: { limit: 25, ...(filter ? { actor: filter } : {}), ...(cursor ? { cursor } : {}) } as never,
          },
        }),
      ),
    [filter, cursor],
  );
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <Group mb="md">
        <FilterField
          label="Actor id"
          placeholder="user_… or key_…"
          value={actor}
          onChange={setActor}
          onApply={() => {
            setCursor(undefined);
            pages.reset();
            setFilter(actor.trim());
          }}
        />
      </Group>
      <LoadState state={state} isEmpty={(d) => d.audit_events.length === 0} empty="No audit events match.">
        {(d) => (
          <>
            <DataTable
              rows={d.audit_events}
              rowKey={(a: AuditEvent) => a.id}
              label="Audit events"
              minWidth={720}
              columns={[
                { label: "When", cell: (a) => fmtDate(a.occurred_at) },
                { label: "Event", cell: (a) => <Code>{a.type}</Code> },
                {
                  label: "Actor",
                  cell: (a) => (
                    <>
                      <Text size="sm">
                        {a.actor.type} {a.actor.id}
                      </Text>
                      {a.actor.ip && (
                        <Text size="xs" c="dimmed">
                          {a.actor.ip}
                        </Text>
                      )}
                    </>
                  ),
                },
                { label: "Target", cell: (a) => `${a.target.type} ${a.target.id}` },
                {
                  label: "Details",
                  cell: (a) => (
                    <Text size="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
                      {JSON.stringify(a.data)}
                    </Text>
                  ),
                },
              ]}
            />
            <Pager pages={pages} pagination={d.pagination} />
          </>
        )}
      </LoadState>
    </>
  );
}
