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
  Title,
} from "@mantine/core";
import { unzipSync } from "fflate";
import { useEffect, useState } from "react";
import { api, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { DataTable, ErrorAlert, LoadState, PageTitle } from "../ui";
import { ReportKeyCard } from "./ReportKey";

type Report = Schemas["Report"];

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
          <DataTable
            rows={f.controls.filter((c) => !onlyUncovered || !c.covered)}
            rowKey={(c) => c.id}
            label={`${f.framework.name} controls`}
            minWidth={520}
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

export function CompliancePage() {
  const state = useLoad(() => call(api.GET("/v1/compliance/overview")));
  const [selected, setSelected] = useState<string[]>([]);
  const [drill, setDrill] = useState<string | null>(null);
  const [format, setFormat] = useState<"pdf" | "oscal">("oscal");
  const [report, setReport] = useState<Report | null>(null);
  const [documents, setDocuments] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);

  const generate = async () => {
    setError(null);
    setDocuments([]);
    try {
      setReport(
        await call(api.POST("/v1/compliance/reports", { body: { frameworks: selected, format, date_range: "90d" } })),
      );
    } catch (err) {
      setError(err);
    }
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
                      onChange={(e) =>
                        setSelected(e.currentTarget.checked ? [...selected, f.id] : selected.filter((s) => s !== f.id))
                      }
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
                    <Button size="xs" variant="subtle" onClick={() => setDrill(drill === f.id ? null : f.id)}>
                      {drill === f.id ? "Hide controls" : "Controls"}
                    </Button>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
            {drill && (
              <Card withBorder>
                <ControlDrillDown id={drill} />
              </Card>
            )}
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Evidence export
              </Title>
              <Group wrap="wrap">
                <SegmentedControl
                  value={format}
                  onChange={(v) => setFormat(v as "pdf" | "oscal")}
                  data={[
                    { value: "oscal", label: "OSCAL ZIP" },
                    { value: "pdf", label: "PDF report" },
                  ]}
                />
                <Button disabled={selected.length === 0} onClick={() => void generate()}>
                  Export{" "}
                  {selected.length
                    ? `${selected.length} framework${selected.length > 1 ? "s" : ""}`
                    : "(select frameworks)"}
                </Button>
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                The last 90 days of evidence for the selected frameworks.
              </Text>
              <ErrorAlert error={error} />
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
            <ReportKeyCard />
            {d.regulations.length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Regulations
                </Title>
                {d.regulations.map((r) => (
                  <Group key={r.id} justify="space-between">
                    <Text size="sm">{r.name}</Text>
                    <Text size="sm" fw={600}>
                      {r.coverage}%
                    </Text>
                  </Group>
                ))}
              </Card>
            )}
          </Stack>
        )}
      </LoadState>
    </>
  );
}
