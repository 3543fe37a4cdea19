// The pages a link opens (an invitation, a password reset: the token rides in the URL's fragment,
// never sent to a server or in Referer) and the signed-in person's password change.
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { api, ApiFailure, call } from "../api";
import { useSubmit } from "../hooks";
import { useSession } from "../session";
import { ErrorAlert, Form, Section } from "../ui";

/** The token in the link's `#token=…`. */
function useLinkToken(): string {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "");
  return token;
}

function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440}>
        <Title order={1} size="h2" mb="md">
          {title}
        </Title>
        {children}
      </Paper>
    </Center>
  );
}

const signInLink = (
  <Anchor href="/sign-in" size="sm">
    Go to sign-in
  </Anchor>
);

/**
 * Redeems an invitation: signed in, the person joins as themselves; otherwise a brand-new account
 * chooses a name and password, and an existing one gives its password. An account made by single
 * sign-on has no password: the page says to sign in through SSO first and open the link again.
 */
export function AcceptInvitationPage() {
  const token = useLinkToken();
  const { session } = useSession();
  const { fields, error, busy, run } = useSubmit();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [joined, setJoined] = useState(false);
  const submit = () =>
    run(async () => {
      await call(api.POST("/auth/invitations/accept", { body: { token, name, password } }));
      setJoined(true);
    });
  const ssoFirst = error instanceof ApiFailure && error.body.code === "AUTH_SIGN_IN_REQUIRED";
  if (!token)
    return (
      <LinkPage title="Join an organization">
        <Text size="sm">This link has no invitation in it: open the whole link you were given.</Text>
      </LinkPage>
    );
  if (joined)
    return (
      <LinkPage title="You joined">
        <Stack>
          <Text size="sm">You are now a member. Sign in to choose the organization.</Text>
          {signInLink}
        </Stack>
      </LinkPage>
    );
  return (
    <LinkPage title="Join an organization">
      <Form onSubmit={submit}>
        <Stack>
          {ssoFirst ? (
            <Alert color="yellow" role="alert">
              Your account signs in through your organization&apos;s single sign-on. Sign in that way first, then open
              this invitation link again to join while signed in. {signInLink}
            </Alert>
          ) : (
            <ErrorAlert error={error} />
          )}
          {session ? (
            <Text size="sm">
              You are signed in as <b>{session.user.email}</b>: join as that account.
            </Text>
          ) : (
            <>
              <Text size="sm">
                New to Verdict: choose your name and a password (at least 12 characters). Already have an account: give
                its password, or sign in first.
              </Text>
              <TextInput
                label="Your name"
                autoComplete="name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={fields.name}
              />
              <PasswordInput
                label="Password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={fields.password}
              />
            </>
          )}
          <Button type="submit" loading={busy}>
            Join
          </Button>
        </Stack>
      </Form>
    </LinkPage>
  );
}

/** Redeems a password-reset link an admin issued: a new password; every session ends. */
export function ResetPasswordPage() {
  const token = useLinkToken();
  const { fields, error, busy, run } = useSubmit();
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const submit = () =>
    run(async () => {
      await call(api.POST("/auth/password/reset", { body: { token, new_password: password } }));
      setDone(true);
    });
  return (
    <LinkPage title="Choose a new password">
      {done ? (
        <Stack>
          <Text size="sm">Your password is set and every session of yours has ended. Sign in with it.</Text>
          {signInLink}
        </Stack>
      ) : (
        <Form onSubmit={submit}>
          <Stack>
            <ErrorAlert error={error} />
            <PasswordInput
              label="New password"
              description="At least 12 characters"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fields.new_password}
            />
            <Button type="submit" loading={busy} disabled={!token}>
              Set password
            </Button>
          </Stack>
        </Form>
      )}
    </LinkPage>
  );
}

/** The signed-in person's password change (the current one required); their other sessions end. */
export function ChangePassword() {
  const { fields, error, busy, run } = useSubmit();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [ended, setEnded] = useState<number | null>(null);
  const submit = () =>
    run(async () => {
      const r = await call(api.POST("/auth/password", { body: { current_password: current, new_password: next } }));
      setEnded(r.sessions_ended);
      setCurrent("");
      setNext("");
    });
  return (
    <Section title="Password">
      <Form onSubmit={submit}>
        <Stack maw={400}>
          <ErrorAlert error={error} />
          {ended !== null && (
            <Alert color="green" role="status">
              Password changed; {ended} other session(s) ended.
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={fields.current_password}
          />
          <PasswordInput
            label="New password"
            description="At least 12 characters"
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={fields.new_password}
          />
          <Button type="submit" w="fit-content" loading={busy}>
            Change password
          </Button>
        </Stack>
      </Form>
    </Section>
  );
}
