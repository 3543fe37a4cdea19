// Security settings as independent sections: password, two-step sign-in (TOTP, passkeys, the
// organization's require-MFA), single sign-on and SCIM provisioning, one module each (security/).
import { Stack } from "@mantine/core";
import { PageTitle } from "../ui";
import { ChangePassword } from "./Account";
import { Passkeys, RequireMfa, Totp } from "./security/Mfa";
import { ScimTokens } from "./security/Scim";
import { Sso } from "./security/Sso";

export function SecurityPage() {
  return (
    <>
      <PageTitle>Security</PageTitle>
      <Stack>
        <ChangePassword />
        <Totp />
        <Passkeys />
        <RequireMfa />
        <Sso />
        <ScimTokens />
      </Stack>
    </>
  );
}
