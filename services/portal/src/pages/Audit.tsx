import {
  Anchor,
  Autocomplete,
  Box,
  Button,
  Code,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import { useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { api, ApiFailure, call, type Schemas } from "../api";
import { useCursorPages, useLoad } from "../hooks";
import { DataTable, fmtDate, Form, LoadState, PageTitle, Pager } from "../ui";

type AuditEvent = Schemas["AuditEvent"];
type AuditType = AuditEvent["type"];

// Every event type the API records: a Record over the generated union, so `pnpm lint` fails
// here when the API adds one the filter does not offer.
const TYPES: Record<AuditType, true> = {
  "signin.succeeded": true,
  "signin.failed": true,
  "signin.locked": true,
  signout: true,
  "mfa.totp_enabled": true,
  "mfa.passkey_added": true,
  "mfa.passkey_deleted": true,
  "mfa.recovery_code_used": true,
  "password.changed": true,
  "password.reset_issued": true,
  "password.reset": true,
  "api_key.created": true,
  "api_key.revoked": true,
  "member.invited": true,
  "member.joined": true,
  "member.role_changed": true,
  "member.removed": true,
  "oauth_client.created": true,
  "oauth_client.deleted": true,
  "oauth.granted": true,
  "oauth.token_revoked": true,
  "oauth.grant_revoked": true,
  "scim_token.created": true,
  "scim_token.deleted": true,
  "scim.user_created": true,
  "scim.user_updated": true,
  "scim.user_deactivated": true,
  "scim.user_reactivated": true,
  "scim.user_deleted": true,
  "scim.group_created": true,
  "scim.group_updated": true,
  "scim.group_deleted": true,
  "sso.connection_updated": true,
  "sso.connection_deleted": true,
  "sso.domain_verified": true,
  "organization.updated": true,
  "organization.created": true,
  "organization.limits_updated": true,
  "policy.created": true,
  "policy.updated": true,
  "policy.enabled": true,
  "policy.disabled": true,
  "policy.deleted": true,
  "repository.connected": true,
  "repository.disconnected": true,
  "repository.renamed": true,
  "webhook.created": true,
  "webhook.updated": true,
  "webhook.deleted": true,
  "evaluation.deleted": true,
  "report.created": true,
  "report.downloaded": true,
  "finding.triaged": true,
  "finding.accepted_risk_expired": true,
  "integration.connected": true,
  "integration.disconnected": true,
};

/** The types grouped by what they concern (the part before the dot), for the filter's list. */
const TYPE_GROUPS = Object.entries(
  Object.keys(TYPES).reduce<Record<string, string[]>>((groups, t) => {
    const group = t.split(".")[0]!;
    (groups[group] ??= []).push(t);
    return groups;
  }, {}),
).map(([group, items]) => ({ group, items }));

/**
 * The kinds of object events are about, offered as suggestions: the API takes any kind (a newer
 * one than these too) and answers none for a kind nothing was recorded about.
 */
const TARGET_TYPES = [
  "organization",
  "policy",
  "repository",
  "connection",
  "webhook",
  "evaluation",
  "report",
  "user",
  "api_key",
  "session",
  "oauth_client",
  "scim_token",
  "scim_group",
  "sso_connection",
  "sso_domain",
];

/** The day after a YYYY-MM-DD (To is included; the API's `until` is not); an impossible day as given, for the API to name. */
function dayAfter(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) return day;
  return new Date(ms + 86_400_000).toISOString().slice(0, 10);
}

/** A value of a diff: absent (null) said so, a list as its items, anything else as written. */
function DiffValue({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return (
      <Text span size="sm" c="dimmed" fs="italic">
        none
      </Text>
    );
  const text = Array.isArray(value)
    ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ") || "[]"
    : typeof value === "string"
      ? value
      : JSON.stringify(value);
  return <Code style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>{text}</Code>;
}

type Changes = Record<string, { before: unknown; after: unknown }>;

/** An event's facts: each changed field as before → after, then the event's other facts. */
function EventDetails({ data }: { data: AuditEvent["data"] }) {
  const { changes, ...facts } = data as { changes?: Changes } & Record<string, unknown>;
  const rows: ReactNode[] = [];
  if (changes) {
    const fields = Object.entries(changes);
    if (fields.length === 0)
      rows.push(
        <Text key="none" size="sm" c="dimmed">
          No field changed
        </Text>,
      );
    for (const [field, { before, after }] of fields)
      rows.push(
        <Box key={`change:${field}`} data-testid="audit-change" data-field={field} style={{ overflowWrap: "anywhere" }}>
          <Text span size="sm" fw={600}>
            {field}
          </Text>
          <Text span size="sm">
            {": "}
          </Text>
          <VisuallyHidden>{"from "}</VisuallyHidden>
          <del>
            <DiffValue value={before} />
          </del>
          <Text span size="sm" aria-hidden>
            {" → "}
          </Text>
          <VisuallyHidden>{"to "}</VisuallyHidden>
          <ins style={{ textDecoration: "none" }}>
            <DiffValue value={after} />
          </ins>
        </Box>,
      );
  }
  for (const [key, value] of Object.entries(facts))
    rows.push(
      <Box key={`fact:${key}`} style={{ overflowWrap: "anywhere" }}>
        <Text span size="sm" c="dimmed">
          {key}:{" "}
        </Text>
        <DiffValue value={value} />
      </Box>,
    );
  return rows.length ? <Stack gap={4}>{rows}</Stack> : <Text size="sm">—</Text>;
}

interface Filters {
  actor: string;
  type: string;
  target_type: string;
  target_id: string;
  from: string;
  to: string;
}

const FILTER_KEYS: (keyof Filters)[] = ["actor", "type", "target_type", "target_id", "from", "to"];

/** The filter form: applied together (Enter or Filter); the API's field errors on the fields they name. */
function AuditFilters({
  initial,
  fields,
  onApply,
}: {
  initial: Filters;
  fields: Record<string, string>;
  onApply: (f: Filters) => void;
}) {
  const [f, setF] = useState(initial);
  const set = (k: keyof Filters) => (v: string) => setF({ ...f, [k]: v });
  return (
    <Form
      onSubmit={() =>
        onApply({ ...f, actor: f.actor.trim(), target_type: f.target_type.trim(), target_id: f.target_id.trim() })
      }
    >
      <Group align="start" gap="sm" wrap="wrap" mb="md">
        <TextInput
          label="Actor id"
          placeholder="user_… or key_…"
          value={f.actor}
          onChange={(e) => set("actor")(e.currentTarget.value)}
          error={fields.actor}
        />
        <Select
          label="Event type"
          placeholder="Any"
          data={TYPE_GROUPS}
          value={f.type || null}
          onChange={(v) => set("type")(v ?? "")}
          searchable
          clearable
          error={fields.type}
          w={240}
        />
        <Autocomplete
          label="Target type"
          placeholder="Any"
          data={TARGET_TYPES}
          value={f.target_type}
          onChange={set("target_type")}
          error={fields.target_type}
          w={180}
        />
        <TextInput
          label="Target id"
          placeholder="wh_…, sql-injection"
          value={f.target_id}
          onChange={(e) => set("target_id")(e.currentTarget.value)}
          error={fields.target_id}
        />
        <TextInput
          type="date"
          label="From"
          value={f.from}
          max={f.to || undefined}
          onChange={(e) => set("from")(e.currentTarget.value)}
          error={fields.since}
        />
        <TextInput
          type="date"
          label="To"
          value={f.to}
          min={f.from || undefined}
          onChange={(e) => set("to")(e.currentTarget.value)}
          error={fields.until}
        />
        <Button type="submit" variant="default" mt={25}>
          Filter
        </Button>
      </Group>
    </Form>
  );
}

export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ""])) as unknown as Filters;
  const cursor = params.get("cursor") ?? undefined;
  // The page's cursor lives in the URL (a deep link); the pages before it, in the hook.
  const pages = useCursorPages(cursor, (c) => {
    const next = new URLSearchParams(params);
    if (c) next.set("cursor", c);
    else next.delete("cursor");
    setParams(next);
  });
  const state = useLoad(
    () =>
      call(
        api.GET("/v1/audit-events", {
          params: {
            query: {
              limit: 25,
              ...(filters.actor ? { actor: filters.actor } : {}),
              ...(filters.type ? { type: filters.type as AuditType } : {}),
              ...(filters.target_type ? { target_type: filters.target_type } : {}),
              ...(filters.target_id ? { target_id: filters.target_id } : {}),
              ...(filters.from ? { since: filters.from } : {}),
              ...(filters.to ? { until: dayAfter(filters.to) } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [...FILTER_KEYS.map((k) => filters[k]), cursor],
  );
  const apply = (f: Filters) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries(f)) if (v) next.set(k, v);
    pages.reset();
    setParams(next);
  };
  // A filter the API refused (a day that does not exist, an unknown type): said on its field.
  const fields = state.error instanceof ApiFailure ? state.error.fieldErrors() : {};
  const filterKey = FILTER_KEYS.map((k) => params.get(k) ?? "").join("\n");
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <AuditFilters key={filterKey} initial={filters} fields={fields} onApply={apply} />
      {Object.keys(fields).length === 0 && (
        <LoadState state={state} isEmpty={(d) => d.audit_events.length === 0} empty="No audit events match.">
          {(d) => (
            <>
              <DataTable
                rows={d.audit_events}
                rowKey={(a: AuditEvent) => a.id}
                label="Audit events"
                minWidth={860}
                columns={[
                  { label: "When", cell: (a) => fmtDate(a.occurred_at) },
                  { label: "Event", cell: (a) => <Code>{a.type}</Code> },
                  {
                    label: "Actor",
                    cell: (a) => (
                      <>
                        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
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
                  {
                    label: "Target",
                    // Its history: every event about the same object.
                    cell: (a) => (
                      <Anchor
                        component={Link}
                        size="sm"
                        style={{ overflowWrap: "anywhere" }}
                        data-testid="audit-target"
                        to={`?${new URLSearchParams({ target_type: a.target.type, target_id: a.target.id })}`}
                      >
                        {a.target.type} {a.target.id}
                      </Anchor>
                    ),
                  },
                  { label: "Details", cell: (a) => <EventDetails data={a.data} /> },
                ]}
              />
              <Pager pages={pages} pagination={d.pagination} />
            </>
          )}
        </LoadState>
      )}
    </>
  );
}
