import { Badge, Button, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { api, call, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { DataTable, ErrorAlert, FilterField, fmtDate, Form, LoadState, PageTitle } from "../ui";

type Finding = Schemas["Finding"];
type State = Finding["state"];

const STATES: { value: State; label: string; color: string }[] = [
  { value: "open", label: "Open", color: "red" },
  { value: "fixed", label: "Fixed", color: "teal" },
  { value: "suppressed", label: "Suppressed in code", color: "gray" },
  { value: "false_positive", label: "False positive", color: "gray" },
  { value: "accepted_risk", label: "Accepted risk", color: "orange" },
];

export function FindingState({ f }: { f: Finding }) {
  const s = STATES.find((x) => x.value === f.state)!;
  return (
    <Badge color={s.color} variant="light">
      {s.label}
    </Badge>
  );
}

/**
 * Marks a finding a false positive or an accepted risk (a reason; for an accepted risk, the day
 * it reopens) in a dialog; the API's field errors on the fields they name.
 */
export function TriageButton({ f, onDone }: { f: Finding; onDone: () => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [state, setState] = useState<"false_positive" | "accepted_risk">("false_positive");
  const [reason, setReason] = useState("");
  const [expires, setExpires] = useState("");
  const { fields, error, busy, run } = useSubmit();
  const save = async () => {
    const body =
      state === "accepted_risk"
        ? { state, reason, ...(expires ? { expires_at: `${expires}T00:00:00Z` } : {}) }
        : { state, reason };
    if (
      await run(() => call(api.PATCH("/v1/findings/{finding_id}", { params: { path: { finding_id: f.id } }, body })))
    ) {
      close();
      onDone();
    }
  };
  const where = `${f.policy_id} in ${f.file}:${f.line}`;
  return (
    <>
      <Button size="xs" variant="default" onClick={open} aria-label={`Triage ${where}`}>
        Triage
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={`Triage ${where}`}
        centered
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <Form onSubmit={save}>
          <Stack>
            <SegmentedControl
              value={state}
              onChange={(v) => setState(v as typeof state)}
              data={[
                { value: "false_positive", label: "False positive" },
                { value: "accepted_risk", label: "Accepted risk" },
              ]}
            />
            <Textarea
              label="Reason"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={fields.reason ?? fields.state}
              autosize
              minRows={2}
              data-autofocus
            />
            {state === "accepted_risk" && (
              <TextInput
                type="date"
                label="Reopens on (UTC)"
                value={expires}
                onChange={(e) => setExpires(e.currentTarget.value)}
                error={fields.expires_at}
              />
            )}
            <ErrorAlert error={error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Save
              </Button>
            </Group>
          </Stack>
        </Form>
      </Modal>
    </>
  );
}

/** The triage of a finding: set it, or take it back (Reopen); fixed and suppressed findings have none. */
export function TriageCell({ f, onDone }: { f: Finding; onDone: () => void }) {
  const { error, act } = useAction(onDone);
  if (f.state === "open") return <TriageButton f={f} onDone={onDone} />;
  if (f.state !== "false_positive" && f.state !== "accepted_risk") return null;
  return (
    <Stack gap={4} align="start">
      <Button
        size="xs"
        variant="default"
        aria-label={`Reopen ${f.policy_id} in ${f.file}:${f.line}`}
        onClick={() =>
          void act(() =>
            call(
              api.PATCH("/v1/findings/{finding_id}", {
                params: { path: { finding_id: f.id } },
                body: { state: "open" },
              }),
            ),
          )
        }
      >
        Reopen
      </Button>
      <ErrorAlert error={error} />
    </Stack>
  );
}

export function FindingsPage() {
  const [params, setParams] = useSearchParams();
  const repository = params.get("repository") ?? "";
  const state = params.get("state") ?? "";
  const [repoInput, setRepoInput] = useState(repository);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next);
  };
  const loaded = useLoad(
    () =>
      call(
        api.GET("/v1/findings", {
          params: {
            query: {
              limit: 100,
              ...(repository ? { repository } : {}),
              ...(state ? { state: state as State } : {}),
            },
          },
        }),
      ),
    [repository, state],
  );
  return (
    <>
      <PageTitle>Findings</PageTitle>
      <Group mb="md" align="end" wrap="wrap">
        <FilterField
          label="Repository"
          placeholder="org/repo"
          value={repoInput}
          onChange={setRepoInput}
          onApply={() => set("repository", repoInput.trim())}
        />
        <Select
          label="State"
          data={[{ value: "", label: "Any" }, ...STATES.map(({ value, label }) => ({ value, label }))]}
          value={state}
          onChange={(v) => set("state", v ?? "")}
          allowDeselect={false}
          w={200}
        />
      </Group>
      <LoadState state={loaded} isEmpty={(d) => d.findings.length === 0} empty="No findings match these filters.">
        {(d) => (
          <>
            <DataTable
              rows={d.findings}
              rowKey={(f: Finding) => f.id}
              label="Findings"
              minWidth={900}
              columns={[
                { label: "Policy", cell: (f) => f.policy_id },
                {
                  label: "Where",
                  cell: (f) => (
                    <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                      {f.repository}@{f.ref} {f.file}:{f.line}
                    </Text>
                  ),
                },
                { label: "Severity", cell: (f) => f.severity },
                {
                  label: "State",
                  cell: (f) => (
                    <Stack gap={2} align="start">
                      <FindingState f={f} />
                      {f.triage_reason && (
                        <Text size="xs" style={{ overflowWrap: "anywhere" }}>
                          {f.triage_reason}
                        </Text>
                      )}
                      {f.triage_expires_at && (
                        <Text size="xs" c="dimmed">
                          reopens {fmtDate(f.triage_expires_at)}
                        </Text>
                      )}
                    </Stack>
                  ),
                },
                { label: "Last seen", cell: (f) => fmtDate(f.last_seen_at) },
                { label: "Triage", actions: true, cell: (f) => <TriageCell f={f} onDone={loaded.reload} /> },
              ]}
            />
            {d.has_more && (
              <Text size="sm" c="dimmed" mt="sm">
                The 100 most recently seen are shown: filter by repository or state to see others.
              </Text>
            )}
          </>
        )}
      </LoadState>
    </>
  );
}
