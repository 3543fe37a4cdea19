import { Anchor, Badge, Card, Code, Group, Select, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api, call, type Schemas } from "../api";
import { useCursorPages, useLoad } from "../hooks";
import { DataTable, FilterField, fmtDate, LoadState, PageTitle, Pager } from "../ui";
import { FindingState, TriageCell } from "./Findings";

type Evaluation = Schemas["Evaluation"];
type Violation = Schemas["Violation"];
type Finding = Schemas["Finding"];

export function StatusBadge({ e }: { e: Evaluation }) {
  if (e.status !== "completed") return <Badge color={e.status === "failed" ? "red" : "gray"}>{e.status}</Badge>;
  return <Badge color={e.passed ? "teal" : "red"}>{e.passed ? "passed" : "failed"}</Badge>;
}

export function EvaluationsPage() {
  const [params, setParams] = useSearchParams();
  const repository = params.get("repository") ?? "";
  const passed = params.get("passed") ?? "";
  const cursor = params.get("cursor") ?? undefined;
  const [repoInput, setRepoInput] = useState(repository);
  const withParam = (k: string, v: string | undefined) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    return next;
  };
  // The page's cursor lives in the URL (a deep link); the pages before it, in the hook.
  const pages = useCursorPages(cursor, (c) => setParams(withParam("cursor", c)));
  const state = useLoad(
    () =>
      call(
        api.GET("/v1/evaluations", {
          params: {
            query: {
              limit: 20,
              ...(repository ? { repository } : {}),
              ...(passed ? { passed: passed as "true" | "false" } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [repository, passed, cursor],
  );
  const set = (k: string, v: string) => {
    const next = withParam(k, v);
    next.delete("cursor");
    pages.reset();
    setParams(next);
  };
  return (
    <>
      <PageTitle>Evaluations</PageTitle>
      <Group mb="md" align="end" wrap="wrap">
        <FilterField
          label="Repository"
          placeholder="org/repo"
          value={repoInput}
          onChange={setRepoInput}
          onApply={() => set("repository", repoInput.trim())}
        />
        <Select
          label="Result"
          data={[
            { value: "", label: "Any" },
            { value: "true", label: "Passed" },
            { value: "false", label: "Failed" },
          ]}
          value={passed}
          onChange={(v) => set("passed", v ?? "")}
          allowDeselect={false}
          w={140}
        />
      </Group>
      <LoadState state={state} isEmpty={(d) => d.evaluations.length === 0} empty="No evaluations match these filters.">
        {(d) => (
          <>
            <DataTable
              rows={d.evaluations}
              rowKey={(e: Evaluation) => e.id}
              label="Evaluations"
              minWidth={640}
              columns={[
                {
                  label: "Evaluation",
                  cell: (e) => (
                    <Anchor component={Link} to={`/evaluations/${e.id}`} ff="monospace" size="sm">
                      {e.id}
                    </Anchor>
                  ),
                },
                { label: "Repository", cell: (e) => e.repository },
                { label: "Ref", cell: (e) => e.ref },
                { label: "Result", cell: (e) => <StatusBadge e={e} /> },
                { label: "Violations", cell: (e) => e.summary.total_violations },
                { label: "Created", cell: (e) => fmtDate(e.created_at) },
              ]}
            />
            <Pager pages={pages} pagination={d.pagination} />
          </>
        )}
      </LoadState>
    </>
  );
}

/** The comment that silences this finding on its line (the engine honours it and records it). */
export function suppressionComment(v: Violation): string {
  return `verdict-ignore ${v.policy_id}: <reason>`;
}

export function EvaluationPage() {
  const { id = "" } = useParams();
  const state = useLoad(
    () => call(api.GET("/v1/evaluations/{evaluation_id}", { params: { path: { evaluation_id: id } } })),
    [id],
  );
  return (
    <>
      <PageTitle>
        Evaluation <Code fz="inherit">{id}</Code>
      </PageTitle>
      <LoadState state={state}>
        {(e) => (
          <Stack>
            <Group>
              <StatusBadge e={e} />
              <Text miw={0} style={{ overflowWrap: "anywhere" }}>
                {e.repository} @ {e.ref} · {e.summary.total_files} files · {e.summary.errors} errors,{" "}
                {e.summary.warnings} warnings, {e.summary.suppressed} suppressed
              </Text>
            </Group>
            {e.violations.length === 0 && <Text c="dimmed">No violations.</Text>}
            <Violations e={e} />
            {e.suppressions.length > 0 && (
              <Card withBorder>
                <Title order={2} size="h5">
                  Suppressed
                </Title>
                {e.suppressions.map((s) => (
                  <Text size="sm" key={`${s.file}:${s.line}:${s.rule_id}`} style={{ overflowWrap: "anywhere" }}>
                    {s.file}:{s.line} {s.policy_id} — {s.reason}
                  </Text>
                ))}
              </Card>
            )}
          </Stack>
        )}
      </LoadState>
    </>
  );
}

/**
 * The evaluation's violations, each with its finding's state (the findings of the repository,
 * matched by ref and fingerprint) and its triage: the same dialog and Reopen as the Findings page.
 */
/** What the provider said of a found credential (live verification, an organization setting). */
const VERIFICATION_LABEL: Record<Exclude<Violation["verification"], undefined>, string> = {
  live: "live credential",
  revoked: "revoked",
  unknown: "liveness unknown",
  not_checked: "not checked",
};

function Violations({ e }: { e: Evaluation }) {
  const findings = useLoad(
    () =>
      call(api.GET("/v1/findings", { params: { query: { repository: e.repository, limit: 500 } } })).then(
        (d) => new Map(d.findings.map((f) => [`${f.ref}\n${f.fingerprint}`, f])),
      ),
    [e.repository],
  );
  return (
    <>
      {e.violations.map((v) => (
        <Card withBorder key={v.id} data-testid="violation">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h5" miw={0} style={{ overflowWrap: "anywhere" }}>
              {v.message}
            </Title>
            <Group gap="xs">
              {v.verification && v.verification !== "not_checked" && (
                <Badge
                  color={v.verification === "live" ? "red" : "gray"}
                  variant={v.verification === "live" ? "filled" : "light"}
                  title={v.verification_checked_at ? `Asked the provider at ${v.verification_checked_at}` : "Not asked"}
                  data-testid="verification"
                >
                  {VERIFICATION_LABEL[v.verification]}
                </Badge>
              )}
              <Badge color={v.severity === "error" ? "red" : "yellow"}>{v.severity}</Badge>
            </Group>
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {v.file}:{v.line}:{v.column} · policy{" "}
            <Anchor component={Link} to={`/policies?focus=${encodeURIComponent(v.policy_id)}`} underline="always">
              {v.policy_id}
            </Anchor>{" "}
            · rule {v.rule_id}
          </Text>
          <Code block mt="xs" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {v.code_snippet}
          </Code>
          {v.suggestion && (
            <Text size="sm" mt="xs">
              <b>Suggestion:</b> {v.suggestion}
            </Text>
          )}
          <Text size="sm" mt="xs">
            To suppress it, add on that line: <Code>{suppressionComment(v)}</Code>
          </Text>
          <ViolationFinding f={findings.data?.get(`${e.ref}\n${v.fingerprint}`)} onDone={findings.reload} />
        </Card>
      ))}
    </>
  );
}

/** A violation's finding: its state (with a triage's reason) and the triage actions. */
function ViolationFinding({ f, onDone }: { f: Finding | undefined; onDone: () => void }) {
  if (!f) return null;
  return (
    <Group mt="xs" gap="sm" wrap="wrap" data-testid="violation-finding">
      <Text size="sm">Finding:</Text>
      <FindingState f={f} />
      {f.triage_reason && (
        <Text size="sm" miw={0} style={{ overflowWrap: "anywhere" }}>
          {f.triage_reason}
          {f.triage_expires_at ? ` (reopens ${fmtDate(f.triage_expires_at)})` : ""}
        </Text>
      )}
      <TriageCell f={f} onDone={onDone} />
    </Group>
  );
}
