import { BarChart, LineChart } from "@mantine/charts";
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { api, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { LoadState, PageTitle } from "../ui";

type Evaluation = Schemas["Evaluation"];

/** Pass rate and violations per day, top policies and repositories, from the latest evaluations. */
export function summarise(evaluations: Evaluation[]) {
  const days = new Map<string, { day: string; passed: number; total: number; violations: number }>();
  const policies = new Map<string, number>();
  const repos = new Map<string, { repository: string; evaluations: number; failed: number; violations: number }>();
  for (const e of evaluations) {
    if (e.status !== "completed") continue;
    const day = e.created_at.slice(0, 10);
    const d = days.get(day) ?? { day, passed: 0, total: 0, violations: 0 };
    d.total += 1;
    if (e.passed) d.passed += 1;
    d.violations += e.summary.total_violations;
    days.set(day, d);
    for (const v of e.violations) policies.set(v.policy_id, (policies.get(v.policy_id) ?? 0) + 1);
    const r = repos.get(e.repository) ?? { repository: e.repository, evaluations: 0, failed: 0, violations: 0 };
    r.evaluations += 1;
    if (e.passed === false) r.failed += 1;
    r.violations += e.summary.total_violations;
    repos.set(e.repository, r);
  }
  const trend = [...days.values()]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((d) => ({ day: d.day, "Pass rate %": Math.round((100 * d.passed) / d.total), Violations: d.violations }));
  const top = [...policies.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([policy, count]) => ({ policy, Violations: count }));
  const completed = evaluations.filter((e) => e.status === "completed");
  const passRate = completed.length
    ? Math.round((100 * completed.filter((e) => e.passed).length) / completed.length)
    : 0;
  return { trend, top, repos: [...repos.values()].sort((a, b) => b.violations - a.violations), passRate, completed };
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`stat-${label}`}>
        {value}
      </Text>
    </Card>
  );
}

export function OverviewPage() {
  const state = useLoad(async () => {
    const list = await call(api.GET("/v1/evaluations", { params: { query: { limit: 100 } } }));
    return summarise(list.evaluations);
  });
  return (
    <>
      <PageTitle>Overview</PageTitle>
      <LoadState
        state={state}
        isEmpty={(s) => s.completed.length === 0}
        empty={
          <>
            No evaluations yet. Run <code>verdict evaluate</code> in a repository or POST /v1/evaluations, then come
            back.
          </>
        }
      >
        {(s) => (
          <Stack>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Pass rate" value={`${s.passRate}%`} />
              <Stat label="Evaluations" value={s.completed.length} />
              <Stat label="Violations" value={s.completed.reduce((n, e) => n + e.summary.total_violations, 0)} />
              <Stat label="Repositories" value={s.repos.length} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Pass rate over time
                </Title>
                <LineChart
                  h={220}
                  data={s.trend}
                  dataKey="day"
                  yAxisProps={{ domain: [0, 100] }}
                  series={[{ name: "Pass rate %", color: "teal.6" }]}
                  curveType="monotone"
                />
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Violations over time
                </Title>
                <BarChart
                  h={220}
                  data={s.trend}
                  dataKey="day"
                  maxBarWidth={48}
                  yAxisProps={{ allowDecimals: false }}
                  series={[{ name: "Violations", color: "red.6" }]}
                />
              </Card>
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Top policies
                </Title>
                {s.top.length === 0 ? (
                  <Text c="dimmed">No violations in the latest evaluations.</Text>
                ) : (
                  <BarChart
                    h={Math.max(160, s.top.length * 36)}
                    data={s.top}
                    dataKey="policy"
                    orientation="vertical"
                    yAxisProps={{ width: 150 }}
                    xAxisProps={{ allowDecimals: false }}
                    maxBarWidth={32}
                    series={[{ name: "Violations", color: "indigo.6" }]}
                  />
                )}
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Repositories
                </Title>
                <Table.ScrollContainer minWidth={360}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Repository</Table.Th>
                        <Table.Th>Evaluations</Table.Th>
                        <Table.Th>Failed</Table.Th>
                        <Table.Th>Violations</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {s.repos.map((r) => (
                        <Table.Tr key={r.repository}>
                          <Table.Td>
                            <Link to={`/evaluations?repository=${encodeURIComponent(r.repository)}`}>
                              {r.repository}
                            </Link>
                          </Table.Td>
                          <Table.Td>{r.evaluations}</Table.Td>
                          <Table.Td>{r.failed}</Table.Td>
                          <Table.Td>{r.violations}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            </SimpleGrid>
            <Group>
              <Text size="xs" c="dimmed">
                From the latest {s.completed.length} completed evaluations.
              </Text>
            </Group>
          </Stack>
        )}
      </LoadState>
    </>
  );
}
