// Two-step sign-in: TOTP with its recovery codes, passkeys, and the organization's require-MFA.
import { Button, Code, Group, List, Stack, Switch, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { startRegistration } from "@simplewebauthn/browser";
import { useState } from "react";
import { api, ApiFailure, call, type Schemas } from "../../api";
import { useLoad } from "../../hooks";
import { useSession } from "../../session";
import { ErrorAlert, fmtDate, Form, LoadState, Section, ShownOnce } from "../../ui";

function RecoveryCodes({ codes }: { codes: string[] }) {
  if (!codes.length) return null;
  return (
    <Stack gap="xs" data-testid="recovery-codes">
      <ShownOnce label="Recovery codes" value={codes.join("\n")} mt="0" />
      <List size="sm" ff="monospace">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

export function Totp() {
  const { session, setSession } = useSession();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[]>([]);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setError(null);
    try {
      setEnrolment(await call(api.POST("/auth/mfa/totp/enrolment")));
    } catch (err) {
      setError(err);
    }
  };
  const confirm = async () => {
    setError(null);
    setFieldError(undefined);
    try {
      const r = await call(api.POST("/auth/mfa/totp/enrolment/confirm", { body: { code: code.trim() } }));
      setCodes(r.recovery_codes);
      setEnrolment(null);
      setSession(r.session);
    } catch (err) {
      if (err instanceof ApiFailure && (err.status === 401 || err.body.details?.errors?.length))
        setFieldError(err.fieldErrors().code ?? err.body.message);
      else setError(err);
    }
  };
  return (
    <Section title="Authenticator app (TOTP)">
      <Stack>
        <Text size="sm">
          Two-step sign-in is <b data-testid="mfa-state">{session?.user.mfa_enabled ? "on" : "off"}</b> for you.
        </Text>
        {!enrolment && (
          <Button w="fit-content" variant="default" onClick={() => void start()}>
            Set up an authenticator app
          </Button>
        )}
        {enrolment && (
          <Form onSubmit={confirm}>
            <Stack>
              <Text size="sm">
                Enter this secret in your authenticator app (or open the otpauth link on your phone):
              </Text>
              <Code data-testid="totp-secret" style={{ overflowWrap: "anywhere" }}>
                {enrolment.secret}
              </Code>
              <TextInput
                label="First code from the app"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={fieldError}
                maw={240}
              />
              <Button type="submit" w="fit-content">
                Confirm
              </Button>
            </Stack>
          </Form>
        )}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

type Passkey = Schemas["Passkey"];

const DEVICE_TYPES: Record<Passkey["device_type"], string> = {
  singleDevice: "This device only",
  multiDevice: "Synced",
  unknown: "Unknown",
};

/** One passkey's row: rename in place, delete after a confirmation. */
function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: () => void }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const path = { params: { path: { credential_id: passkey.id } } };
  const rename = async () => {
    setError(null);
    setFieldError(undefined);
    try {
      await call(
        api.PATCH("/auth/webauthn/credentials/{credential_id}", {
          ...path,
          body: { name: renaming ?? "", version: passkey.version },
        }),
      );
      setRenaming(null);
      onChanged();
    } catch (err) {
      if (err instanceof ApiFailure && err.fieldErrors().name) setFieldError(err.fieldErrors().name);
      else setError(err);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      // The version this row shows: another tab's rename since then answers 412, not a silent delete.
      await call(
        api.DELETE("/auth/webauthn/credentials/{credential_id}", {
          params: { ...path.params, header: { "If-Match": `W/"${passkey.version}"` } },
        }),
      );
      onChanged();
    } catch (err) {
      setConfirming(false);
      setError(err);
    }
  };
  return (
    <Table.Tr data-testid={`passkey-${passkey.name}`}>
      <Table.Td>
        {renaming === null ? (
          passkey.name
        ) : (
          <TextInput
            aria-label="New name"
            value={renaming}
            onChange={(e) => setRenaming(e.currentTarget.value)}
            error={fieldError}
            size="xs"
          />
        )}
        <ErrorAlert error={error} />
      </Table.Td>
      <Table.Td>{fmtDate(passkey.created_at)}</Table.Td>
      <Table.Td>{passkey.last_used_at ? fmtDate(passkey.last_used_at) : "Never"}</Table.Td>
      <Table.Td>
        {DEVICE_TYPES[passkey.device_type]}
        {passkey.backed_up ? " · backed up" : ""}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {renaming === null ? (
            <Button size="xs" variant="default" onClick={() => setRenaming(passkey.name)}>
              Rename
            </Button>
          ) : (
            <>
              <Button size="xs" onClick={() => void rename()}>
                Save
              </Button>
              <Button size="xs" variant="default" onClick={() => setRenaming(null)}>
                Cancel
              </Button>
            </>
          )}
          {confirming ? (
            <>
              <Button size="xs" color="red" onClick={() => void remove()}>
                Delete {passkey.name}
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          ) : (
            <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function Passkeys() {
  const { setSession } = useSession();
  const list = useLoad(() => call(api.GET("/auth/webauthn/credentials")));
  const [name, setName] = useState("");
  const [codes, setCodes] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const add = async () => {
    setError(null);
    setDone(false);
    try {
      const { options } = await call(api.POST("/auth/webauthn/registration/options"));
      const response = await startRegistration({ optionsJSON: options as never });
      const r = await call(
        api.POST("/auth/webauthn/registration/verify", {
          body: { response: response as never, ...(name ? { name } : {}) },
        }),
      );
      setCodes(r.recovery_codes);
      setSession(r.session);
      setDone(true);
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title="Passkeys">
      <Stack>
        <LoadState
          state={list}
          isEmpty={(l) => l.passkeys.length === 0}
          empty={<>No passkeys yet: add one to sign in with your device instead of a code.</>}
        >
          {(l) => (
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {l.passkeys.map((p) => (
                    <PasskeyRow key={p.id} passkey={p} onChanged={list.reload} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </LoadState>
        <Group align="end" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="laptop, YubiKey…"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Button onClick={() => void add()}>Add a passkey</Button>
        </Group>
        {done && <Text c="var(--mantine-color-teal-light-color)">Passkey added.</Text>}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

export function RequireMfa() {
  const state = useLoad(() => call(api.GET("/v1/organization")));
  const [error, setError] = useState<unknown>(null);
  return (
    <Section title="Organization policy">
      <LoadState state={state}>
        {(org) => (
          <Stack>
            <Switch
              label="Require two-step sign-in for every member"
              checked={org.settings.require_mfa}
              onChange={(e) => {
                const require_mfa = e.currentTarget.checked;
                setError(null);
                call(api.PATCH("/v1/organization", { body: { settings: { require_mfa } } })).then(
                  state.reload,
                  setError,
                );
              }}
            />
            <Text size="xs" c="dimmed">
              Members without a second factor must enrol one before anything else.
            </Text>
            <ErrorAlert error={error} />
          </Stack>
        )}
      </LoadState>
    </Section>
  );
}
