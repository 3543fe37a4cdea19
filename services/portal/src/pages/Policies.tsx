import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Drawer,
  Group,
  JsonInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { api, ApiFailure, call, type Schemas } from "../api";
import { useAction, useLoad, useSubmit } from "../hooks";
import { DataTable, ErrorAlert, FieldRow, LoadState, PageTitle, usePhone } from "../ui";

type Policy = Schemas["PolicySummary"];

type Severity = Schemas["PolicySummary"]["severity"];
const SEVERITIES: Severity[] = ["error", "warning"];

type PatternTest = Schemas["PatternTestResult"];

/** What the tester shows for the server's answer: the lines (and columns) that match. */
export function describeMatches(result: PatternTest): string {
  if (!result.matches.length) return "No match";
  const lines = [...new Set(result.matches.map((m) => m.line))];
  const where = result.matches
    .slice(0, 5)
    .map((m) => `${m.line}:${m.column}`)
    .join(", ");
  const more = result.truncated ? " (first 200 matches)" : "";
  return `Matches line${lines.length > 1 ? "s" : ""} ${lines.join(", ")} at ${where}${result.matches.length > 5 ? ", …" : ""}${more}`;
}

/** The pattern a custom policy's form holds: RE2, or a syntax-aware rule (ast-grep, as JSON). */
export interface FormPattern {
  type: "regex" | "structural";
  value: string;
  language: string;
  rule: string;
}

export const STRUCTURAL_LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "java",
  "go",
  "ruby",
  "php",
  "csharp",
  "kotlin",
] as const;

/**
 * The pattern as the API takes it, or a field error when its rule is not a JSON object (checked
 * here: the server can only be sent JSON).
 */
export function patternBody(p: FormPattern): { pattern?: Record<string, unknown>; ruleError?: string } {
  if (p.type === "regex") return { pattern: { type: "regex", value: p.value } };
  let rule: unknown;
  try {
    rule = JSON.parse(p.rule);
  } catch {
    return { ruleError: "Not valid JSON" };
  }
  if (typeof rule !== "object" || rule === null || Array.isArray(rule))
    return { ruleError: "The rule is a JSON object" };
  return { pattern: { type: "structural", language: p.language, rule } };
}

/** The first field error of a pattern's fields (value, or a structural rule's language, rule and its keys). */
function patternFieldError(fields: Record<string, string>): string | undefined {
  const key = Object.keys(fields).find((f) => f.startsWith("patterns[0]."));
  return key
    ? key === "patterns[0].value"
      ? fields[key]
      : `${key.slice("patterns[0].".length)}: ${fields[key]}`
    : undefined;
}

/**
 * The pattern tester: the server checks the pattern exactly as creating the policy does (RE2 or
 * ast-grep, the cost budget) and runs it as the engine does, so what it shows is what evaluations
 * will find; the browser's RegExp accepts lookbehind that RE2 refuses and reads \pL differently.
 */
function usePatternTest(form: FormPattern, sample: string) {
  const [state, setState] = useState<{
    result?: PatternTest;
    fieldError?: string;
    textError?: string;
    error?: unknown;
  }>({});
  const { type, value, language, rule } = form;
  useEffect(() => {
    const body = patternBody({ type, value, language, rule });
    if (!(type === "regex" ? value : rule) || !sample) {
      setState({});
      return;
    }
    if (!body.pattern) {
      setState({ fieldError: body.ruleError });
      return;
    }
    let live = true;
    // Typing pauses before a test is sent: one request per pause, not per key.
    const timer = setTimeout(() => {
      call(
        api.POST("/v1/policies/pattern-tests", {
          body: { patterns: [body.pattern as never], text: sample },
        }),
      ).then(
        (result) => live && setState({ result }),
        (err: unknown) => {
          if (!live) return;
          const fields = err instanceof ApiFailure ? err.fieldErrors() : {};
          const fieldError = patternFieldError(fields);
          const textError = fields.text;
          setState(fieldError || textError ? { fieldError, textError } : { error: err });
        },
      );
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [type, value, language, rule, sample]);
  return state;
}

function PolicySettings({ id, onClose }: { id: string; onClose: () => void }) {
  const state = useLoad(() => call(api.GET("/v1/policies/{policy_id}", { params: { path: { policy_id: id } } })), [id]);
  const [text, setText] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  return (
    <LoadState state={state}>
      {(p) => {
        const value = text ?? JSON.stringify(p.settings, null, 2);
        const save = async () => {
          setError(null);
          setFieldErrors({});
          setSaved(false);
          let settings: Record<string, unknown>;
          try {
            settings = JSON.parse(value) as Record<string, unknown>;
          } catch {
            setFieldErrors({ settings: "Not valid JSON" });
            return;
          }
          try {
            await call(
              api.PATCH("/v1/policies/{policy_id}", { params: { path: { policy_id: id } }, body: { settings } }),
            );
            setSaved(true);
          } catch (err) {
            if (err instanceof ApiFailure && err.body.details?.errors?.length) setFieldErrors(err.fieldErrors());
            else setError(err);
          }
        };
        const settingErrors = Object.entries(fieldErrors).map(([f, m]) => `${f}: ${m}`);
        return (
          <Stack>
            <Text size="sm">{p.description}</Text>
            <Text size="sm">Frameworks: {p.frameworks.length ? p.frameworks.join(", ") : "none"}</Text>
            {p.patterns.map((pt) => (
              <Code block key={pt.value}>
                {pt.value}
              </Code>
            ))}
            <JsonInput
              label="Settings"
              autosize
              minRows={4}
              value={value}
              onChange={setText}
              error={settingErrors.length ? settingErrors.join("; ") : undefined}
              data-testid="settings"
            />
            <ErrorAlert error={error} />
            <Group>
              <Button onClick={() => void save()}>Save settings</Button>
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              {saved && <Text c="var(--mantine-color-teal-light-color)">Saved</Text>}
            </Group>
          </Stack>
        );
      }}
    </LoadState>
  );
}

const EMPTY_FORM = {
  id: "",
  name: "",
  severity: "warning" as Severity,
  type: "regex" as FormPattern["type"],
  pattern: "",
  language: "python",
  rule: "",
  message: "",
};

function CustomPolicyForm({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState(EMPTY_FORM);
  const [sample, setSample] = useState("");
  const { fields, error, busy, run } = useSubmit();
  const pattern: FormPattern = { type: form.type, value: form.pattern, language: form.language, rule: form.rule };
  const tested = usePatternTest(pattern, sample);
  const [ruleError, setRuleError] = useState<string>();
  const submit = async () => {
    const built = patternBody(pattern);
    setRuleError(built.ruleError);
    if (!built.pattern) return;
    const body = {
      id: form.id,
      name: form.name,
      severity: form.severity,
      patterns: [{ ...built.pattern, message: form.message || form.name }],
    };
    if (await run(() => call(api.POST("/v1/policies", { body: body as never })))) {
      setForm(EMPTY_FORM);
      onCreated();
    }
  };
  const upd = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  const patternError = patternFieldError(fields) ?? fields.patterns ?? ruleError ?? tested.fieldError;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        New custom policy
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <FieldRow cols={3}>
            <TextInput
              label="Id"
              description="a slug, e.g. no-todo"
              value={form.id}
              onChange={upd("id")}
              error={fields.id}
            />
            <TextInput label="Name" value={form.name} onChange={upd("name")} error={fields.name} />
            <Select
              label="Severity"
              data={SEVERITIES}
              value={form.severity}
              onChange={(v) => setForm({ ...form, severity: (v ?? "warning") as Severity })}
              allowDeselect={false}
            />
          </FieldRow>
          <FieldRow cols={2}>
            <Select
              label="Pattern type"
              data={[
                { value: "regex", label: "Regular expression (RE2)" },
                { value: "structural", label: "Syntax-aware rule (ast-grep)" },
              ]}
              value={form.type}
              onChange={(v) => setForm({ ...form, type: (v ?? "regex") as FormPattern["type"] })}
              allowDeselect={false}
            />
            {form.type === "structural" && (
              <Select
                label="Language"
                data={[...STRUCTURAL_LANGUAGES]}
                value={form.language}
                onChange={(v) => setForm({ ...form, language: v ?? "python" })}
                allowDeselect={false}
              />
            )}
          </FieldRow>
          {form.type === "regex" ? (
            <TextInput
              label="Pattern (RE2)"
              value={form.pattern}
              onChange={upd("pattern")}
              error={patternError}
              ff="monospace"
            />
          ) : (
            <JsonInput
              label="Rule (ast-grep, JSON)"
              description='e.g. {"pattern": "eval($X)"}; keys: pattern, kind, regex, inside, has, precedes, follows, all, any, not'
              autosize
              minRows={3}
              value={form.rule}
              onChange={(v) => setForm({ ...form, rule: v })}
              error={patternError}
              ff="monospace"
            />
          )}
          <TextInput
            label="Message"
            value={form.message}
            onChange={upd("message")}
            error={fields["patterns[0].message"]}
          />
          <Textarea
            label="Test against sample text"
            autosize
            minRows={3}
            value={sample}
            onChange={(e) => setSample(e.currentTarget.value)}
            error={tested.textError}
          />
          {tested.result && (
            <Text size="sm" data-testid="pattern-result">
              {describeMatches(tested.result)}
            </Text>
          )}
          {tested.fieldError && (
            <Text size="sm" data-testid="pattern-result" c="var(--mantine-color-red-light-color)">
              The pattern cannot be used (see the field above)
            </Text>
          )}
          <ErrorAlert error={tested.error} />
          <ErrorAlert error={error} />
          <Button type="submit" loading={busy} w="fit-content">
            Create policy
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/**
 * `/policies?focus=<id>` (a violation's policy link): that policy's row is marked, scrolled into
 * view and given the keyboard focus once the list is there; an id the list lacks is said so.
 */
function useFocusedPolicy(policies: Policy[] | undefined): { focus: string | null; missing: boolean } {
  const [params] = useSearchParams();
  const focus = params.get("focus");
  const found = !!focus && !!policies?.some((p) => p.id === focus);
  useEffect(() => {
    if (!found) return;
    const row = document.querySelector<HTMLElement>("[data-focused-policy]");
    row?.scrollIntoView({ block: "center" });
    row?.focus({ preventScroll: true });
  }, [found, focus]);
  return { focus, missing: !!focus && policies !== undefined && !found };
}

export function PoliciesPage() {
  const state = useLoad(() => call(api.GET("/v1/policies")));
  const [open, setOpen] = useState<string | null>(null);
  const { error, act } = useAction(state.reload);
  const phone = usePhone();
  const { focus, missing } = useFocusedPolicy(state.data?.policies);
  const patch = (id: string, body: { enabled?: boolean; severity?: Severity }) =>
    act(() => call(api.PATCH("/v1/policies/{policy_id}", { params: { path: { policy_id: id } }, body })));
  return (
    <>
      <PageTitle>Policies</PageTitle>
      <ErrorAlert error={error} />
      {missing && (
        <Alert color="orange" mb="md">
          No policy <Code>{focus}</Code> in this organization.
        </Alert>
      )}
      <LoadState state={state} isEmpty={(d) => d.policies.length === 0}>
        {(d) => (
          <DataTable
            rows={d.policies}
            rowKey={(p: Policy) => p.id}
            rowProps={(p) => ({
              "data-testid": `policy-${p.id}`,
              ...(p.id === focus
                ? { "data-focused-policy": "", "aria-current": "true" as const, className: "focused-row", tabIndex: -1 }
                : {}),
            })}
            label="Policies"
            minWidth={640}
            columns={[
              {
                label: "Policy",
                cell: (p) => (
                  <>
                    <Text fw={500}>{p.name}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {p.id} {p.builtin ? "" : <Badge size="xs">custom</Badge>}
                    </Text>
                  </>
                ),
              },
              { label: "Category", cell: (p) => p.category },
              {
                label: "Severity",
                control: true,
                cell: (p) => (
                  <Select
                    aria-label={`Severity of ${p.name}`}
                    data={SEVERITIES}
                    value={p.severity}
                    onChange={(v) => v && void patch(p.id, { severity: v as Severity })}
                    allowDeselect={false}
                    w={120}
                    size="xs"
                  />
                ),
              },
              {
                label: "Enabled",
                control: true,
                cell: (p) => (
                  <Switch
                    aria-label={`Enable ${p.name}`}
                    checked={p.enabled}
                    onChange={(e) => void patch(p.id, { enabled: e.currentTarget.checked })}
                  />
                ),
              },
              {
                label: "Actions",
                actions: true,
                cell: (p) => (
                  <Button size="xs" variant="subtle" onClick={() => setOpen(p.id)} aria-label={`Settings of ${p.name}`}>
                    Settings
                  </Button>
                ),
              },
            ]}
          />
        )}
      </LoadState>
      <Stack mt="lg">
        <CustomPolicyForm onCreated={state.reload} />
      </Stack>
      <Drawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        position="right"
        size={phone ? "100%" : "lg"}
        title={open ?? ""}
      >
        {open && <PolicySettings id={open} onClose={() => setOpen(null)} />}
      </Drawer>
    </>
  );
}
