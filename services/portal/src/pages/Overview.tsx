import { BarChart, LineChart } from "@mantine/charts";
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { api, call, type Schemas } from "../api";
import { useLoad } from "../hooks";
import { LoadState, PageTitle } from "../ui";

type Stats = Schemas["EvaluationStats"];

/** The charts' rows from the API's figures (grouped by the server over the whole range). */
export function summarise(stats: Stats) {
  const trend = stats.buckets.map((b) => ({
    day: b.start,
    // An empty day has no pass rate: the line skips it rather than dropping to 0.
    "Pass rate %": b.evaluations ? Math.round((100 * b.passed) / b.evaluations) : null,
    Violations: b.violations,
  }));
  const top = stats.top_policies.slice(0, 8).map((p) => ({ policy: p.policy_id, Violations: p.violations }));
  const t = stats.totals;
  const passRate = t.evaluations ? Math.round((100 * t.passed) / t.evaluations) : 0;
  return { trend, top, repos: stats.top_repositories, passRate, totals: t };
}

const RANGE_DAYS = 30;

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
    const stats = await call(api.GET("/v1/evaluations/stats", { params: { query: { bucket: "day" } } }));
    return summarise(stats);
  });
  return (
    <>
      <PageTitle>Overview</PageTitle>
      <LoadState
        state={state}
        isEmpty={(s) => s.totals.evaluations === 0}
        empty={
          <>
            No evaluations in the last {RANGE_DAYS} days. Run <code>verdict evaluate</code> in a repository or POST
            /v1/evaluations, then come back.
          </>
        }
      >
        {(s) => (
          <Stack>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Pass rate" value={`${s.passRate}%`} />
              <Stat label="Evaluations" value={s.totals.evaluations} />
              <Stat label="Failed" value={s.totals.failed} />
              <Stat label="Violations" value={s.totals.violations} />
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
                  connectNulls
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
                  <Text c="dimmed">No violations in these {RANGE_DAYS} days.</Text>
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
                  Top repositories
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
                All completed evaluations of the last {RANGE_DAYS} days, per UTC day.
              </Text>
            </Group>
          </Stack>
        )}
      </LoadState>
    </>
  );
}
