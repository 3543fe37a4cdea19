// Shared page pieces: loading, empty and error states, a value shown once with a copy button,
// titled form cards, list tables (cards at phone width), cursor pagination, confirm-to-delete.
import {
  Alert,
  Box,
  Button,
  Card,
  Center,
  CopyButton,
  Code,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Fragment, type HTMLAttributes, type ReactNode } from "react";
import { message } from "./api";
import type { Loaded } from "./hooks";

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      {/* An id in a title (eval_01…) is one long word: it breaks rather than widen a phone's page. */}
      <Title order={1} size="h2" miw={0} style={{ overflowWrap: "anywhere" }}>
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

/** A secret the API returns once (a key, a signing secret, a token, an invitation link); nothing when absent. */
export function ShownOnce({
  label,
  value,
  mt = "md",
}: {
  label: string;
  value: string | null | undefined;
  mt?: string;
}) {
  if (!value) return null;
  return (
    <Alert color="yellow" title={`${label} — shown once: copy it now`} data-testid="shown-once" mt={mt}>
      <Copyable value={value} testId="secret-value" />
    </Alert>
  );
}

/** A value to paste elsewhere (a secret shown once, a webhook URL) with its copy button. */
export function Copyable({ value, testId, label }: { value: string; testId?: string; label?: string }) {
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      <Code data-testid={testId} style={{ wordBreak: "break-all", flex: 1 }}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="xs"
            onClick={copy}
            color={copied ? "teal" : "blue"}
            style={{ flexShrink: 0 }}
            aria-label={label ? `${copied ? "Copied" : "Copy"} ${label}` : undefined}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
        )}
      </CopyButton>
    </Group>
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

/** A titled card: a section of a page. */
export function Section({ title, children, mb }: { title: string; children: ReactNode; mb?: string }) {
  return (
    <Card withBorder mb={mb}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A form that submits without leaving the page (Enter in a field submits it). */
export function Form({ onSubmit, children }: { onSubmit: () => unknown; children: ReactNode }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A create form in a titled card, with what it created (e.g. a value shown once) below it. */
export function FormCard({
  title,
  onSubmit,
  children,
  result,
}: {
  title: string;
  onSubmit: () => unknown;
  children: ReactNode;
  result?: ReactNode;
}) {
  return (
    <Section title={title} mb="lg">
      <Form onSubmit={onSubmit}>{children}</Form>
      {result}
    </Section>
  );
}

/** Fields side by side on a wide window, stacked on a narrow one (a phone, a tablet beside the navigation). */
export function FieldRow({ cols, children }: { cols: number; children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, md: cols }} spacing="md" verticalSpacing="sm">
      {children}
    </SimpleGrid>
  );
}

export interface Column<R> {
  label: string;
  cell: (row: R) => ReactNode;
  /** The row's actions: no visible heading; last in a card. */
  actions?: boolean;
  /** A control with a name of its own (a select, a switch): in a card, on the footer row after its column's name. */
  control?: boolean;
}

/** True on a phone-sized window (below Mantine's `xs`, 576 px). */
export const usePhone = () => useMediaQuery("(max-width: 36em)", false, { getInitialValueInEffect: false });

/**
 * A list as a table that scrolls sideways when the window is narrower than `minWidth`; on a phone,
 * a card a row (each value under its column's name), so nothing scrolls sideways.
 */
export function DataTable<R>({
  rows,
  columns,
  rowKey,
  minWidth = 600,
  rowProps,
  label,
}: {
  rows: R[];
  columns: Column<R>[];
  rowKey: (row: R) => string;
  minWidth?: number;
  rowProps?: (row: R) => HTMLAttributes<HTMLElement> & { [data: `data-${string}`]: string | undefined };
  label?: string;
}) {
  const phone = usePhone();
  if (phone)
    return (
      <Stack gap="sm" component="ul" className="row-cards" aria-label={label}>
        {rows.map((r) => (
          <Card withBorder padding="sm" component="li" key={rowKey(r)} {...rowProps?.(r)}>
            <Box component="dl" className="row-card">
              {columns
                .filter((c) => !c.actions && !c.control)
                .map((c) => (
                  <div key={c.label} className="row-card-item">
                    <dt>{c.label}</dt>
                    <dd>{c.cell(r)}</dd>
                  </div>
                ))}
            </Box>
            {columns.some((c) => c.actions || c.control) && (
              <Group gap="sm" mt="xs" wrap="wrap">
                {columns
                  .filter((c) => c.control)
                  .map((c) => (
                    <Group key={c.label} gap={6} wrap="nowrap">
                      <Text size="sm" c="dimmed" aria-hidden>
                        {c.label}
                      </Text>
                      {c.cell(r)}
                    </Group>
                  ))}
                {columns
                  .filter((c) => c.actions)
                  .map((c) => (
                    <Fragment key={c.label}>{c.cell(r)}</Fragment>
                  ))}
              </Group>
            )}
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label}>{c.actions ? <VisuallyHidden>{c.label}</VisuallyHidden> : c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={rowKey(r)} {...rowProps?.(r)}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.cell(r)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A loaded list: loading, error (with a retry), `empty` when it has no rows, else the table. */
export function ListTable<T, R>({
  state,
  rows,
  empty,
  ...table
}: {
  state: Loaded<T>;
  rows: (data: T) => R[];
  empty: string;
  columns: Column<R>[];
  rowKey: (row: R) => string;
  minWidth?: number;
  rowProps?: (row: R) => HTMLAttributes<HTMLElement> & { [data: `data-${string}`]: string | undefined };
  label?: string;
}) {
  return (
    <LoadState state={state} isEmpty={(d) => rows(d).length === 0} empty={empty}>
      {(d) => <DataTable rows={rows(d)} {...table} />}
    </LoadState>
  );
}

/** Previous/Next of a cursor-paginated list: `pages` from useCursorPages, `pagination` from the API. */
export function Pager({
  pages,
  pagination,
}: {
  pages: { hasPrevious: boolean; previous: () => void; next: (cursor: string | null | undefined) => void };
  pagination: { has_more: boolean; next_cursor?: string | null };
}) {
  return (
    <Group mt="md">
      <Button variant="default" disabled={!pages.hasPrevious} onClick={pages.previous}>
        Previous
      </Button>
      <Button variant="default" disabled={!pagination.has_more} onClick={() => pages.next(pagination.next_cursor)}>
        Next
      </Button>
    </Group>
  );
}

/** A one-field filter (a repository, an actor id): applied on Enter or with its button. */
export function FilterField({
  label,
  placeholder,
  value,
  onChange,
  onApply,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
  onApply: () => void;
}) {
  return (
    <Form onSubmit={onApply}>
      <Group align="end" gap="xs" wrap="wrap">
        <TextInput
          label={label}
          placeholder={placeholder}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          Filter
        </Button>
      </Group>
    </Form>
  );
}

/**
 * A destructive button that asks first: a dialog names what goes; Cancel (focused first) or
 * Escape keeps it, and focus returns to the button.
 */
export function ConfirmButton({
  children,
  title,
  message,
  onConfirm,
  "aria-label": ariaLabel,
}: {
  children: string;
  title: string;
  message: ReactNode;
  onConfirm: () => unknown;
  "aria-label"?: string;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button size="xs" color="red" variant="subtle" onClick={open} aria-label={ariaLabel}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ "aria-label": "Close" }}>
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              close();
              void onConfirm();
            }}
          >
            {children}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
