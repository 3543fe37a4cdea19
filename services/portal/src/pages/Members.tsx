import { Badge, Button, Card, Group, Select, Stack, Table, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { api, ApiFailure, call } from "../api";
import { useLoad } from "../hooks";
import { ErrorAlert, LoadState, PageTitle, ShownOnce } from "../ui";

type Role = "owner" | "admin" | "member" | "viewer";
const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

export function MembersPage() {
  const state = useLoad(() => call(api.GET("/v1/members")));
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [invitation, setInvitation] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);

  const invite = async () => {
    setFields({});
    setError(null);
    setInvitation(null);
    try {
      const m = await call(api.POST("/v1/members", { body: { email, role } }));
      setInvitation(m.invitation_url);
      setEmail("");
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
      <PageTitle>Members</PageTitle>
      <Card withBorder mb="lg">
        <Title order={2} size="h4" mb="sm">
          Invite someone
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void invite();
          }}
        >
          <Group align="end" wrap="wrap">
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fields.email}
            />
            <Select
              label="Role"
              data={ROLES}
              value={role}
              onChange={(v) => setRole((v ?? "member") as Role)}
              allowDeselect={false}
              w={140}
            />
            <Button type="submit">Invite</Button>
          </Group>
        </form>
        {invitation && (
          <Stack mt="md">
            <ShownOnce label="Invitation link (valid 7 days)" value={invitation} />
          </Stack>
        )}
      </Card>
      <ErrorAlert error={error} />
      <LoadState state={state} isEmpty={(d) => d.members.length === 0} empty="No members.">
        {(d) => (
          <Table.ScrollContainer minWidth={600}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>MFA</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.members.map((m) => (
                  <Table.Tr key={m.id} data-testid="member">
                    <Table.Td>{m.email}</Table.Td>
                    <Table.Td>{m.name || "—"}</Table.Td>
                    <Table.Td>
                      <Badge color={m.status === "active" ? "teal" : "gray"}>{m.status}</Badge>
                    </Table.Td>
                    <Table.Td>{m.mfa_enabled ? "on" : "off"}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Role of ${m.email}`}
                        data={ROLES}
                        value={m.role}
                        size="xs"
                        w={120}
                        allowDeselect={false}
                        onChange={(v) =>
                          v &&
                          void act(() =>
                            call(
                              api.PATCH("/v1/members/{member_id}", {
                                params: { path: { member_id: m.id } },
                                body: { role: v as Role },
                              }),
                            ),
                          )
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        aria-label={`Remove ${m.email}`}
                        onClick={() =>
                          void act(() =>
                            call(api.DELETE("/v1/members/{member_id}", { params: { path: { member_id: m.id } } })),
                          )
                        }
                      >
                        Remove
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
