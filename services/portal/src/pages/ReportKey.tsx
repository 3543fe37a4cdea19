// The instance's report key on the compliance page: every report file is signed with it, and an
// auditor checks a file with the public key served at /.well-known/verdict-report-key.pem.
import { Button, Card, Code, Group, Stack, Text, Title } from "@mantine/core";
import { api, call } from "../api";
import { useLoad } from "../hooks";
import { LoadState } from "../ui";

export const REPORT_KEY_PEM = "/.well-known/verdict-report-key.pem";

export function ReportKeyCard() {
  const state = useLoad(() => call(api.GET("/.well-known/verdict-report-key.jwk")));
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Report signing key
      </Title>
      <LoadState state={state}>
        {(key) => (
          <Stack gap={6}>
            <Text size="sm">
              Every report file (PDF, OSCAL ZIP) is signed with this instance&apos;s Ed25519 key; a report gives its
              file&apos;s SHA-256 and signature. Anyone can check a file with the public key.
            </Text>
            <Text size="sm">
              Key id:{" "}
              <Code data-testid="report-key-id" style={{ overflowWrap: "anywhere", whiteSpace: "normal" }}>
                {key.kid}
              </Code>
            </Text>
            <Group gap="md" wrap="wrap">
              <Button component="a" href={REPORT_KEY_PEM} variant="light" size="xs">
                Public key (PEM)
              </Button>
              <Button component="a" href={REPORT_KEY_PEM.replace(/\.pem$/, ".jwk")} variant="light" size="xs">
                JSON Web Key
              </Button>
            </Group>
            <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              verdict reports verify FILE --server {window.location.origin}
            </Code>
          </Stack>
        )}
      </LoadState>
    </Card>
  );
}
