import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { startAuthentication } from "@simplewebauthn/browser";
import { useState, type FormEvent } from "react";
import { api, ApiFailure, call, message, type ApiError } from "../api";
import { useSession } from "../session";

type Step = { kind: "password" } | { kind: "sso" } | { kind: "mfa"; token: string; methods: string[] };

/**
 * Where single sign-on starts for an email: the API's OIDC authorize or SAML login URL, whichever
 * redirects (the email's verified domain decides the protocol). The probe does not follow the
 * redirect (an opaque redirect is all a page may see of it); the browser then goes there itself.
 * Neither redirecting: the API's error (422 on `email`: no verified SSO domain).
 */
async function ssoStart(email: string): Promise<string> {
  let failure: ApiFailure | null = null;
  for (const path of ["/auth/oidc/authorize", "/auth/saml/login"]) {
    const url = `${path}?${new URLSearchParams({ email }).toString()}`;
    const res = await fetch(url, { redirect: "manual", credentials: "same-origin" });
    if (res.type === "opaqueredirect") return url;
    const body = (await res.json().catch(() => ({}))) as Partial<ApiError>;
    failure ??= new ApiFailure(res.status, {
      error: body.error ?? "error",
      code: body.code ?? `HTTP_${res.status}`,
      message: body.message ?? res.statusText,
      ...(body.details ? { details: body.details } : {}),
    });
    // Only "this domain uses the other protocol" is worth the second try.
    if (res.status !== 422) break;
  }
  throw failure!;
}

/** Sign-in: email and password, then the second factor the person has (a TOTP code or a passkey). */
export function SignInPage() {
  const { setSession } = useSession();
  const [step, setStep] = useState<Step>({ kind: "password" });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function run(f: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      await f();
    } catch (err) {
      if (err instanceof ApiFailure && err.fieldErrors() && Object.keys(err.fieldErrors()).length)
        setFields(err.fieldErrors());
      else setError(err);
    } finally {
      setBusy(false);
    }
  }

  const login = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await call(api.POST("/auth/login", { body: { email, password } }));
      if (r.mfa_required) setStep({ kind: "mfa", token: r.mfa_token ?? "", methods: r.methods ?? [] });
      else if (r.session) setSession(r.session);
    });
  };

  const sso = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      window.location.assign(await ssoStart(email.trim()));
    });
  };

  const totp = (e: FormEvent) => {
    e.preventDefault();
    if (step.kind !== "mfa") return;
    void run(async () => {
      const r = await call(api.POST("/auth/mfa/totp", { body: { mfa_token: step.token, code: code.trim() } }));
      if (r.session) setSession(r.session);
    });
  };

  const passkey = () => {
    if (step.kind !== "mfa") return;
    void run(async () => {
      const { options } = await call(api.POST("/auth/webauthn/login/options", { body: { mfa_token: step.token } }));
      const response = await startAuthentication({ optionsJSON: options as never });
      const r = await call(
        api.POST("/auth/webauthn/login/verify", { body: { mfa_token: step.token, response: response as never } }),
      );
      if (r.session) setSession(r.session);
    });
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <Title order={1} size="h2" mb="xs">
          Sign in to Verdict
        </Title>
        {error ? (
          <Alert color="red" role="alert" mb="md">
            {message(error)}
          </Alert>
        ) : null}
        {step.kind === "password" ? (
          <form onSubmit={login}>
            <Stack>
              <TextInput
                label="Email"
                type="email"
                autoComplete="username webauthn"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={fields.email}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={fields.password}
              />
              <Button type="submit" loading={busy}>
                Sign in
              </Button>
              <Button variant="default" onClick={() => setStep({ kind: "sso" })}>
                Sign in with SSO
              </Button>
            </Stack>
          </form>
        ) : step.kind === "sso" ? (
          <form onSubmit={sso}>
            <Stack>
              <Text size="sm">Your organization&apos;s identity provider signs you in: enter your work email.</Text>
              <TextInput
                label="Work email"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={fields.email}
              />
              <Button type="submit" loading={busy}>
                Continue with SSO
              </Button>
              <Anchor component="button" type="button" size="sm" onClick={() => setStep({ kind: "password" })}>
                Sign in with a password instead
              </Anchor>
            </Stack>
          </form>
        ) : (
          <Stack>
            <Text size="sm">A second factor is required.</Text>
            {step.methods.includes("webauthn") && (
              <Button onClick={passkey} loading={busy} variant="filled">
                Use a passkey
              </Button>
            )}
            {(step.methods.includes("totp") || step.methods.includes("recovery_code")) && (
              <form onSubmit={totp}>
                <Stack>
                  <TextInput
                    label="Authentication code"
                    description="The 6-digit code from your authenticator app, or a recovery code"
                    autoComplete="one-time-code"
                    inputMode="text"
                    required
                    value={code}
                    onChange={(e) => setCode(e.currentTarget.value)}
                    error={fields.code}
                  />
                  <Button
                    type="submit"
                    loading={busy}
                    variant={step.methods.includes("webauthn") ? "default" : "filled"}
                  >
                    Verify
                  </Button>
                </Stack>
              </form>
            )}
            <Anchor component="button" type="button" size="sm" onClick={() => setStep({ kind: "password" })}>
              Start over
            </Anchor>
          </Stack>
        )}
      </Paper>
    </Center>
  );
}
