import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { unzipSync } from "fflate";
import { useEffect, useState } from "react";
import { api, call, type Schemas } from "../api";
import { useLoad, useSubmit } from "../hooks";
import { DataTable, ErrorAlert, LoadState, PageTitle } from "../ui";
import { ReportKeyCard } from "./ReportKey";

type Report = Schemas["Report"];
type Evidence = Schemas["FrameworkDetail"]["controls"][number]["evidence"];

const EVIDENCE: Record<Evidence, { label: string; color: string }> = {
  passed: { label: "passed", color: "teal" },
  remediated: { label: "remediated", color: "teal" },
  failing: { label: "open violations", color: "red" },
  "no-evidence": { label: "no evidence", color: "gray" },
};

const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

function ControlDrillDown({ id }: { id: string }) {
  const state = useLoad(
    () => call(api.GET("/v1/compliance/frameworks/{framework_id}", { params: { path: { framework_id: id } } })),
    [id],
  );
  const [onlyUncovered, setOnlyUncovered] = useState(false);
  return (
    <LoadState state={state}>
      {(f) => (
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h5">
              {f.framework.name} {f.framework.version} — controls
            </Title>
            <Checkbox
              label="Uncovered only"
              checked={onlyUncovered}
              onChange={(e) => setOnlyUncovered(e.currentTarget.checked)}
            />
          </Group>
          <Text size="xs" c="dimmed">
            Evidence from {f.evidence_range.start} to {f.evidence_range.end}: passed only when an enabled policy ran
            over a file it could apply to.
          </Text>
          <DataTable
            rows={f.controls.filter((c) => !onlyUncovered || !c.covered)}
            rowKey={(c) => c.id}
            label={`${f.framework.name} controls`}
            minWidth={640}
            columns={[
              {
                label: "Control",
                cell: (c) => (
                  <Text ff="monospace" size="sm">
                    {c.id}
                  </Text>
                ),
              },
              { label: "Name", cell: (c) => c.name },
              {
                label: "Covered by",
                cell: (c) =>
                  c.covered ? <Text size="sm">{c.policies.join(", ")}</Text> : <Badge color="orange">uncovered</Badge>,
              },
              {
                label: "Evidence",
                cell: (c) => <Badge color={EVIDENCE[c.evidence].color}>{EVIDENCE[c.evidence].label}</Badge>,
              },
            ]}
          />
        </Stack>
      )}
    </LoadState>
  );
}

/** Polls a report until it is done; the browser then downloads it (an OSCAL ZIP is opened with fflate to list its documents). */
function ReportProgress({ report, onDone }: { report: Report; onDone: (r: Report) => void }) {
  const [r, setR] = useState(report);
  useEffect(() => {
    if (r.status !== "generating") return;
    const t = setTimeout(() => {
      call(api.GET("/v1/compliance/reports/{report_id}", { params: { path: { report_id: r.report_id } } })).then(
        (next) => {
          setR(next);
          if (next.status !== "generating") onDone(next);
        },
        () => undefined,
      );
    }, 700);
    return () => clearTimeout(t);
  }, [r, onDone]);
  return (
    <Stack gap={4}>
      <Text size="sm">
        Report {r.report_id} ({r.format}, {r.frameworks.join(", ")}): <b data-testid="report-status">{r.status}</b>
      </Text>
      {r.status === "generating" && <Progress value={100} animated aria-label="Generating the report" />}
      {r.failure_reason && <Text c="red">{r.failure_reason}</Text>}
      {r.sha256 && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }} data-testid="report-sha256">
          SHA-256 {r.sha256}, signed by key {r.signature_key_id}
        </Text>
      )}
    </Stack>
  );
}

async function download(url: string, name: string): Promise<Uint8Array> {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`Download failed: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes]));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  return bytes;
}

/**
 * The evidence export: the selected frameworks and regulations over any date range the API takes
 * (calendar dates, UTC, both inclusive, at most 366 days; the last 90 days to begin with). The
 * API's field errors (an end before the start, a future date) show on the date they name.
 */
function EvidenceExport({ selected }: { selected: string[] }) {
  const [format, setFormat] = useState<"pdf" | "oscal">("oscal");
  const [start, setStart] = useState(() => isoDay(Date.now() - 89 * DAY_MS));
  const [end, setEnd] = useState(() => isoDay(Date.now()));
  const [report, setReport] = useState<Report | null>(null);
  const [documents, setDocuments] = useState<string[]>([]);
  const { fields, error: submitError, busy, run } = useSubmit();
  const [error, setError] = useState<unknown>(null);

  const generate = () => {
    setError(null);
    setDocuments([]);
    void run(async () =>
      setReport(
        await call(
          api.POST("/v1/compliance/reports", { body: { frameworks: selected, format, date_range: { start, end } } }),
        ),
      ),
    );
  };
  const done = async (r: Report) => {
    if (r.status !== "completed" || !r.download_url) return;
    try {
      const bytes = await download(r.download_url, `verdict-${r.report_id}.${r.format === "pdf" ? "pdf" : "zip"}`);
      if (r.format === "oscal") setDocuments(Object.keys(unzipSync(bytes)).sort());
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Evidence export
      </Title>
      <Group wrap="wrap" align="end">
        <TextInput
          type="date"
          label="From"
          value={start}
          max={end}
          onChange={(e) => setStart(e.currentTarget.value)}
          error={fields["date_range.start"] ?? fields["date_range"]}
        />
        <TextInput
          type="date"
          label="To"
          value={end}
          min={start}
          onChange={(e) => setEnd(e.currentTarget.value)}
          error={fields["date_range.end"]}
        />
        <SegmentedControl
          value={format}
          onChange={(v) => setFormat(v as "pdf" | "oscal")}
          data={[
            { value: "oscal", label: "OSCAL ZIP" },
            { value: "pdf", label: "PDF report" },
          ]}
        />
        <Button disabled={selected.length === 0} loading={busy} onClick={generate}>
          Export {selected.length ? `${selected.length} selected` : "(select frameworks or regulations)"}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        Evidence for the selected frameworks and regulations between the two dates (UTC, both included, at most 366
        days).
      </Text>
      {fields["frameworks"] && (
        <Text size="sm" c="red" mt={4}>
          {fields["frameworks"]}
        </Text>
      )}
      <ErrorAlert error={submitError ?? error} />
      {report && (
        <Stack mt="md">
          <ReportProgress key={report.report_id} report={report} onDone={(r) => void done(r)} />
        </Stack>
      )}
      {documents.length > 0 && (
        <List size="sm" mt="sm" data-testid="zip-documents">
          {documents.map((n) => (
            <List.Item key={n}>{n}</List.Item>
          ))}
        </List>
      )}
    </Card>
  );
}

export function CompliancePage() {
  const state = useLoad(() => call(api.GET("/v1/compliance/overview")));
  const [selected, setSelected] = useState<string[]>([]);
  const [drill, setDrill] = useState<string | null>(null);
  const select = (id: string, on: boolean) => setSelected(on ? [...selected, id] : selected.filter((s) => s !== id));
  const controlsButton = (id: string, name: string) => (
    <Button
      size="xs"
      variant="subtle"
      onClick={() => setDrill(drill === id ? null : id)}
      aria-label={`${drill === id ? "Hide controls" : "Controls"} of ${name}`}
    >
      {drill === id ? "Hide controls" : "Controls"}
    </Button>
  );

  return (
    <>
      <PageTitle>Compliance</PageTitle>
      <LoadState state={state} isEmpty={(d) => d.frameworks.length === 0} empty="No frameworks.">
        {(d) => (
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {d.frameworks.map((f) => (
                <Card withBorder key={f.id} data-testid={`framework-${f.id}`}>
                  <Group justify="space-between" wrap="nowrap" align="start">
                    <Checkbox
                      label={f.name}
                      checked={selected.includes(f.id)}
                      onChange={(e) => select(f.id, e.currentTarget.checked)}
                    />
                    <Text fw={700}>{f.coverage}%</Text>
                  </Group>
                  <Progress
                    value={f.coverage}
                    mt="sm"
                    color={f.coverage >= 80 ? "teal" : f.coverage >= 50 ? "yellow" : "red"}
                    aria-label={`${f.name} coverage`}
                  />
                  <Group justify="space-between" mt="xs">
                    <Text size="sm" c="dimmed">
                      {f.controls.covered} of {f.controls.total} controls covered
                    </Text>
                    {controlsButton(f.id, f.name)}
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
            {d.regulations.length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Regulations
                </Title>
                <Stack gap={4}>
                  {d.regulations.map((r) => (
                    <Group key={r.id} justify="space-between" wrap="nowrap" data-testid={`regulation-${r.id}`}>
                      <Checkbox
                        label={r.name}
                        checked={selected.includes(r.id)}
                        onChange={(e) => select(r.id, e.currentTarget.checked)}
                      />
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" fw={600}>
                          {r.coverage}%
                        </Text>
                        {controlsButton(r.id, r.name)}
                      </Group>
                    </Group>
                  ))}
                </Stack>
              </Card>
            )}
            {drill && (
              <Card withBorder>
                <ControlDrillDown id={drill} />
              </Card>
            )}
            <EvidenceExport selected={selected} />
            <ReportKeyCard />
          </Stack>
        )}
      </LoadState>
    </>
  );
}
