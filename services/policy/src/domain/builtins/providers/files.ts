// Credential files recognised by their structure: the file's own format says where the secret is,
// whatever its value looks like. Each with the page that documents the format.
import { type BuiltinPattern } from "../types.js";

const file = (
  id: string,
  message: string,
  value: string,
  paths: string[],
  keywords: string[],
  documentation_url: string,
): BuiltinPattern => ({
  id,
  type: "regex",
  value,
  message,
  redact_group: 1,
  keywords,
  paths,
  min_entropy: 1,
  documentation_url,
});

export const CREDENTIAL_FILE_RULES: BuiltinPattern[] = [
  // `machine host login user password secret`, on one line or across several.
  file(
    "netrc-password",
    "Password in a .netrc file",
    String.raw`(?:^|[ \t])password[ \t]+([^\s#]{4,})`,
    [String.raw`(?:^|/)[._]netrc$`],
    ["password"],
    "https://www.gnu.org/software/inetutils/manual/html_node/The-_002enetrc-file.html",
  ),
  // [pypi] / [testpypi] sections: `password = pypi-…` or an account password.
  file(
    "pypirc-password",
    "Password or API token in a .pypirc file",
    String.raw`(?m)^[ \t]*password[ \t]*[=:][ \t]*([^\s#;]{4,})`,
    [String.raw`(?:^|/)\.pypirc$`],
    ["password"],
    "https://packaging.python.org/en/latest/specifications/pypirc/",
  ),
  // Docker's `{"auths": {"registry": {"auth": "<base64 of user:password>"}}}`.
  file(
    "docker-config-auth",
    "Registry credentials (auth) in a Docker config.json",
    String.raw`"auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,}={0,2})"`,
    [String.raw`(?:^|/)config\.json$`, String.raw`(?:^|/)\.dockercfg$`],
    ["auth"],
    "https://docs.docker.com/reference/cli/docker/login/#credential-stores",
  ),
];
