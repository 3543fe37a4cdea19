import { Badge, Button, Group, Select, TextInput } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { ConfirmButton, ErrorAlert, FormCard, ListTable, PageTitle, ShownOnce } from "../ui";

type Role = "owner" | "admin" | "member" | "viewer";
const ROLES: Role[] = ["owner", "admin", "member", "viewer"];
type Member = Schemas["Member"];

export function MembersPage() {
  const state = useLoad(() => call(api.GET("/v1/members")));
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [invitation, setInvitation] = useState<string | null>(null);
  const [resetLink, setResetLink] = useState<string | null>(null);
  const form = useSubmit();
  const { error, act } = useAction(state.reload);

  const invite = async () => {
    setInvitation(null);
    const ok = await form.run(async () => {
      setInvitation((await call(api.POST("/v1/members", { body: { email, role } }))).invitation_url);
    });
    if (ok) {
      setEmail("");
      state.reload();
    }
  };
  return (
    <>
      <PageTitle>Members</PageTitle>
      <FormCard
        title="Invite someone"
        onSubmit={invite}
        result={<ShownOnce label="Invitation link (valid 7 days)" value={invitation} />}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={form.fields.email}
          />
          <Select
            label="Role"
            data={ROLES}
            value={role}
            onChange={(v) => setRole((v ?? "member") as Role)}
            allowDeselect={false}
            w={140}
          />
          <Button type="submit" loading={form.busy}>
            Invite
          </Button>
        </Group>
        <ErrorAlert error={form.error} />
      </FormCard>
      <ErrorAlert error={error} />
      <ShownOnce label="Password-reset link (valid 1 hour, works once)" value={resetLink} />
      <ListTable
        state={state}
        rows={(d) => d.members}
        empty="No members."
        label="Members"
        rowKey={(m: Member) => m.id}
        rowProps={() => ({ "data-testid": "member" })}
        columns={[
          { label: "Email", cell: (m) => m.email },
          { label: "Name", cell: (m) => m.name || "—" },
          { label: "Status", cell: (m) => <Badge color={m.status === "active" ? "teal" : "gray"}>{m.status}</Badge> },
          { label: "MFA", cell: (m) => (m.mfa_enabled ? "on" : "off") },
          {
            label: "Role",
            control: true,
            cell: (m) => (
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
            ),
          },
          {
            label: "Actions",
            actions: true,
            cell: (m) => (
              <Group gap="xs" wrap="nowrap">
                {m.status === "active" && (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Reset password of ${m.email}`}
                    onClick={() =>
                      void act(async () => {
                        const r = await call(
                          api.POST("/v1/members/{member_id}/password-reset", {
                            params: { path: { member_id: m.id } },
                          }),
                        );
                        setResetLink(r.reset_url);
                      })
                    }
                  >
                    Reset password
                  </Button>
                )}
                <ConfirmButton
                  aria-label={`Remove ${m.email}`}
                  title={`Remove ${m.email}?`}
                  message="They lose access to this organization."
                  onConfirm={() =>
                    act(() => call(api.DELETE("/v1/members/{member_id}", { params: { path: { member_id: m.id } } })))
                  }
                >
                  Remove
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
    </>
  );
}
