import {
  ActionIcon,
  AppShell,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  Text,
  useComputedColorScheme,
  useMantineColorScheme,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Navigate, NavLink as RouterLink, Route, Routes, useLocation } from "react-router";
import { AcceptInvitationPage, ResetPasswordPage } from "./pages/Account";
import { ApiKeysPage } from "./pages/ApiKeys";
import { AuditPage } from "./pages/Audit";
import { CompliancePage } from "./pages/Compliance";
import { ConnectionsPage, GitHubCallbackPage } from "./pages/Connections";
import { EvaluationPage, EvaluationsPage } from "./pages/Evaluations";
import { FindingsPage } from "./pages/Findings";
import { MembersPage } from "./pages/Members";
import { OAuthClientsPage } from "./pages/OAuthClients";
import { OrganizationPage } from "./pages/Organization";
import { OverviewPage } from "./pages/Overview";
import { PoliciesPage } from "./pages/Policies";
import { RepositoriesPage } from "./pages/Repositories";
import { SecurityPage } from "./pages/Security";
import { SignInPage } from "./pages/SignIn";
import { WebhooksPage } from "./pages/Webhooks";
import { useSession } from "./session";

export const NAV: { to: string; label: string; section?: string }[] = [
  { to: "/", label: "Overview" },
  { to: "/evaluations", label: "Evaluations" },
  { to: "/findings", label: "Findings" },
  { to: "/policies", label: "Policies" },
  { to: "/repositories", label: "Repositories" },
  { to: "/connections", label: "Connections" },
  { to: "/compliance", label: "Compliance" },
  { to: "/webhooks", label: "Webhooks" },
  { to: "/settings/api-keys", label: "API keys", section: "Settings" },
  { to: "/settings/members", label: "Members", section: "Settings" },
  { to: "/settings/organization", label: "Organization", section: "Settings" },
  { to: "/settings/security", label: "Security", section: "Settings" },
  { to: "/settings/oauth-clients", label: "OAuth clients", section: "Settings" },
  { to: "/settings/audit", label: "Audit log", section: "Settings" },
];

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme("light");
  const next = computed === "dark" ? "light" : "dark";
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={`Switch to ${next} mode`}
      onClick={() => setColorScheme(next)}
      data-testid="color-scheme"
    >
      <span aria-hidden>{computed === "dark" ? "☀" : "☾"}</span>
    </ActionIcon>
  );
}

export function App() {
  const { session, signOut } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();

  if (session === undefined)
    return (
      <Center h="100vh" role="status">
        <Loader aria-label="Loading" />
      </Center>
    );
  // Pages a link opens, signed in or not.
  if (location.pathname === "/invitations/accept") return <AcceptInvitationPage />;
  if (location.pathname === "/password/reset") return <ResetPasswordPage />;
  if (session === null || location.pathname === "/sign-in")
    return session ? <Navigate to="/" replace /> : <SignInPage />;

  let lastSection: string | undefined;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} size="lg">
              Verdict
            </Text>
            <Text c="dimmed" size="sm" visibleFrom="xs" data-testid="org-name">
              {session.organization.name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="sm">
              {session.user.email}
            </Text>
            <ColorSchemeToggle />
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea>
          <nav>
            {NAV.map((n) => {
              const heading = n.section && n.section !== lastSection;
              lastSection = n.section;
              return (
                <div key={n.to}>
                  {heading && (
                    <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="md" mb={4} px="sm">
                      {n.section}
                    </Text>
                  )}
                  <NavLink
                    component={RouterLink}
                    to={n.to}
                    end={n.to === "/"}
                    label={n.label}
                    onClick={close}
                    active={n.to === "/" ? location.pathname === "/" : location.pathname.startsWith(n.to)}
                  />
                </div>
              );
            })}
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main">
        <Routes>
          <Route path="/" element={<OverviewPage />} />
          <Route path="/evaluations" element={<EvaluationsPage />} />
          <Route path="/findings" element={<FindingsPage />} />
          <Route path="/evaluations/:id" element={<EvaluationPage />} />
          <Route path="/policies" element={<PoliciesPage />} />
          <Route path="/repositories" element={<RepositoriesPage />} />
          <Route path="/connections" element={<ConnectionsPage />} />
          <Route path="/connections/github/callback" element={<GitHubCallbackPage />} />
          <Route path="/compliance" element={<CompliancePage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/settings/api-keys" element={<ApiKeysPage />} />
          <Route path="/settings/members" element={<MembersPage />} />
          <Route path="/settings/organization" element={<OrganizationPage />} />
          <Route path="/settings/security" element={<SecurityPage />} />
          <Route path="/settings/oauth-clients" element={<OAuthClientsPage />} />
          <Route path="/settings/audit" element={<AuditPage />} />
          <Route path="*" element={<Text>Page not found.</Text>} />
        </Routes>
      </AppShell.Main>
    </AppShell>
  );
}
