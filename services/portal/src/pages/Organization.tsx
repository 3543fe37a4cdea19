import { Button, Card, NumberInput, Select, Stack, Switch, Text, TextInput, Textarea } from "@mantine/core";
import { useState } from "react";
import { api, call, type Schemas } from "../api";
import { useLoad, useSubmit } from "../hooks";
import { ErrorAlert, Form, LoadState, PageTitle } from "../ui";

type Org = Schemas["Organization"];

function OrgForm({ org, onSaved }: { org: Org; onSaved: () => void }) {
  const [name, setName] = useState(org.name);
  const [settings, setSettings] = useState(org.settings);
  const { fields, error, busy, run } = useSubmit();
  const [saved, setSaved] = useState(false);
  const save = async () => {
    setSaved(false);
    if (await run(() => call(api.PATCH("/v1/organization", { body: { name, settings } })))) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <Form onSubmit={save}>
      <Stack maw={520}>
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} />
        <Select
          label="Default severity of custom policies"
          data={["error", "warning"]}
          value={settings.default_severity}
          onChange={(v) =>
            setSettings({ ...settings, default_severity: (v ?? "error") as Org["settings"]["default_severity"] })
          }
          allowDeselect={false}
          error={fields["settings.default_severity"]}
        />
        <Switch
          label="Require a passing evaluation"
          checked={settings.require_evaluation_pass}
          onChange={(e) => setSettings({ ...settings, require_evaluation_pass: e.currentTarget.checked })}
        />
        <Switch
          label="Allow inline suppression comments"
          checked={settings.allow_inline_suppression}
          onChange={(e) => setSettings({ ...settings, allow_inline_suppression: e.currentTarget.checked })}
        />
        <Textarea
          label="System description"
          description="What the system is: the PDF evidence report's scope page shows it"
          autosize
          minRows={2}
          maxLength={4000}
          value={settings.system_description}
          onChange={(e) => setSettings({ ...settings, system_description: e.currentTarget.value })}
          error={fields["settings.system_description"]}
        />
        <Textarea
          label="Report scope"
          description="What the evidence covers: repositories, environments, exclusions"
          autosize
          minRows={2}
          maxLength={4000}
          value={settings.report_scope}
          onChange={(e) => setSettings({ ...settings, report_scope: e.currentTarget.value })}
          error={fields["settings.report_scope"]}
        />
        <NumberInput
          label="Keep audit events for (days)"
          description="At least 90; empty keeps every event. Older events are deleted from the start of the audit log"
          allowDecimal={false}
          allowNegative={false}
          value={settings.audit_retention_days ?? ""}
          onChange={(v) => setSettings({ ...settings, audit_retention_days: typeof v === "number" ? v : null })}
          error={fields["settings.audit_retention_days"]}
        />
        <ErrorAlert error={error} />
        <Button type="submit" loading={busy} w="fit-content">
          Save
        </Button>
        {saved && <Text c="var(--mantine-color-teal-light-color)">Saved</Text>}
      </Stack>
    </Form>
  );
}

export function OrganizationPage() {
  const state = useLoad(() => call(api.GET("/v1/organization")));
  return (
    <>
      <PageTitle>Organization</PageTitle>
      <LoadState state={state}>
        {(org) => (
          <Card withBorder>
            <Text size="sm" c="dimmed" mb="md" style={{ overflowWrap: "anywhere" }}>
              {org.id} · plan {org.plan} · {org.members_count} members · {org.repositories_count} repositories
            </Text>
            <OrgForm org={org} onSaved={state.reload} />
          </Card>
        )}
      </LoadState>
    </>
  );
}
