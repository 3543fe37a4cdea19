import { Button, Code, Group, Table, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call } from "../api";
import { useLoad } from "../hooks";
import { fmtDate, LoadState, PageTitle } from "../ui";

export function AuditPage() {
  const [actor, setActor] = useState("");
  const [filter, setFilter] = useState("");
  const [cursor, setCursor] = useState<string | undefined>();
  const [previous, setPrevious] = useState<(string | undefined)[]>([]);
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
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setCursor(undefined);
          setPrevious([]);
          setFilter(actor.trim());
        }}
      >
        <Group align="end" mb="md">
          <TextInput
            label="Actor id"
            placeholder="user_… or key_…"
            value={actor}
            onChange={(e) => setActor(e.currentTarget.value)}
          />
          <Button type="submit" variant="default">
            Filter
          </Button>
        </Group>
      </form>
      <LoadState state={state} isEmpty={(d) => d.audit_events.length === 0} empty="No audit events match.">
        {(d) => (
          <>
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Event</Table.Th>
                    <Table.Th>Actor</Table.Th>
                    <Table.Th>Target</Table.Th>
                    <Table.Th>Details</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.audit_events.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>{fmtDate(a.occurred_at)}</Table.Td>
                      <Table.Td>
                        <Code>{a.type}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {a.actor.type} {a.actor.id}
                        </Text>
                        {a.actor.ip && (
                          <Text size="xs" c="dimmed">
                            {a.actor.ip}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {a.target.type} {a.target.id}
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
                          {JSON.stringify(a.data)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group mt="md">
              <Button
                variant="default"
                disabled={previous.length === 0}
                onClick={() => {
                  const p = [...previous];
                  setCursor(p.pop());
                  setPrevious(p);
                }}
              >
                Previous
              </Button>
              <Button
                variant="default"
                disabled={!d.pagination.has_more}
                onClick={() => {
                  setPrevious([...previous, cursor]);
                  setCursor(d.pagination.next_cursor ?? undefined);
                }}
              >
                Next
              </Button>
            </Group>
          </>
        )}
      </LoadState>
    </>
  );
}
