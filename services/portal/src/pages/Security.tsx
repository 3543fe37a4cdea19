// Security settings as independent sections (two-step sign-in, passkeys, the organization's
// require-MFA): SSO connections and SCIM tokens are further sections of this page.
import { Button, Card, Code, Group, List, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { startRegistration } from "@simplewebauthn/browser";
import { useState, type ReactNode } from "react";
import { api, ApiFailure, call } from "../api";
import { useLoad } from "../hooks";
import { useSession } from "../session";
import { ErrorAlert, LoadState, PageTitle, ShownOnce } from "../ui";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  if (!codes.length) return null;
  return (
    <Stack gap="xs" data-testid="recovery-codes">
      <ShownOnce label="Recovery codes" value={codes.join("\n")} />
      <List size="sm" ff="monospace">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

function Totp() {
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
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void confirm();
            }}
          >
            <Stack>
              <Text size="sm">
                Enter this secret in your authenticator app (or open the otpauth link on your phone):
              </Text>
              <Code data-testid="totp-secret">{enrolment.secret}</Code>
              <TextInput
                label="First code from the app"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={fieldError}
                w={240}
              />
              <Button type="submit" w="fit-content">
                Confirm
              </Button>
            </Stack>
          </form>
        )}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

function Passkeys() {
  const { setSession } = useSession();
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
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title="Passkeys">
      <Stack>
        <Group align="end" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="laptop, YubiKey…"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Button onClick={() => void add()}>Add a passkey</Button>
        </Group>
        {done && <Text c="teal">Passkey added.</Text>}
        <RecoveryCodes codes={codes} />
        <ErrorAlert error={error} />
      </Stack>
    </Section>
  );
}

function RequireMfa() {
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

export function SecurityPage() {
  return (
    <>
      <PageTitle>Security</PageTitle>
      <Stack>
        <Totp />
        <Passkeys />
        <RequireMfa />
      </Stack>
    </>
  );
}
