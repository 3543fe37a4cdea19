// Shared page pieces: loading, empty and error states, a value shown once with a copy button.
import { Alert, Button, Center, CopyButton, Code, Group, Loader, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { message } from "./api";
import type { Loaded } from "./hooks";

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {children}
      </Title>
      {actions}
    </Group>
  );
}

/** Renders loading, error (with a retry) or the content; `empty` when isEmpty(data). */
export function LoadState<T>({
  state,
  empty,
  isEmpty,
  children,
}: {
  state: Loaded<T>;
  empty?: ReactNode;
  isEmpty?: (d: T) => boolean;
  children: (d: T) => ReactNode;
}) {
  if (state.loading && state.data === undefined)
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (state.error)
    return (
      <Alert color="red" title="Could not load" role="alert">
        <Stack gap="xs">
          <Text size="sm">{message(state.error)}</Text>
          <Button size="xs" variant="light" onClick={state.reload} w="fit-content">
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  if (state.data === undefined) return null;
  if (isEmpty?.(state.data))
    return (
      <Text c="dimmed" py="lg" data-testid="empty">
        {empty ?? "Nothing here yet."}
      </Text>
    );
  return <>{children(state.data)}</>;
}

export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <Alert color="yellow" title={`${label} — shown once: copy it now`} data-testid="shown-once">
      <Group gap="sm" wrap="nowrap" align="center">
        <Code data-testid="secret-value" style={{ wordBreak: "break-all", flex: 1 }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" onClick={copy} color={copied ? "teal" : "blue"}>
              {copied ? "Copied" : "Copy"}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}

export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" title="Request failed">
      {message(error)}
    </Alert>
  );
}

export const fmtDate = (iso?: string | null) => (iso ? new Date(iso).toLocaleString() : "—");
