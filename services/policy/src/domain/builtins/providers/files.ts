// Credential files recognised by their structure: the file's own format says where the secret is,
// whatever its value looks like. Each with the page that documents the format.
import { type BuiltinPattern } from "../types.js";

type FileOptions = Pick<BuiltinPattern, "file_requires" | "generic" | "min_entropy" | "checks">;

/**
 * A rule for one credential file format. `paths` are RE2 on the file's path (empty: any file
 * `options.file_requires` recognises by its content). A rule marked `generic` yields to a token
 * rule that names the same secret's provider (a GitHub token in .git-credentials is reported as
 * one), so one secret makes one finding.
 */
const file = (
  id: string,
  message: string,
  value: string,
  paths: string[],
  keywords: string[],
  documentation_url: string,
  options: FileOptions = {},
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
  ...options,
});

// A kubeconfig (`kind: Config`, or a `current-context:`), whatever its file name: ~/.kube/config,
// `KUBECONFIG=…` files, CI artefacts.
const KUBECONFIG = [String.raw`(?m)^(?:kind:[ \t]*["']?Config["']?[ \t]*(?:#.*)?$|current-context:)`];
// The words every kubeconfig has, as the rules' keywords: the engine's one pass looks for them, so
// the rules (and their file condition) run only on files that have one, not on every file that
// says `token` or `password`.
const KUBECONFIG_WORDS = ["current-context", "kind: config"];
const KUBECONFIG_DOCS = "https://kubernetes.io/docs/reference/config-api/kubeconfig.v1/#AuthInfo";

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
  // git's credential store: one `https://user:password@host` per line, the password in clear.
  file(
    "git-credentials-password",
    "Password or token in a git credential store (.git-credentials)",
    String.raw`(?m)^[ \t]*[A-Za-z][A-Za-z0-9+.-]*://[^:@/\s]*:([^@\s]{1,})@`,
    [String.raw`(?:^|/)\.git-credentials$`, String.raw`(?:^|/)\.config/git/credentials$`],
    ["://"],
    "https://git-scm.com/docs/git-credential-store#_storage_format",
    { generic: true },
  ),
  // kubeconfig `users[].user`: a bearer token, a basic-auth password, a client key in PEM.
  file(
    "kubeconfig-user-token",
    "Bearer token of a kubeconfig user",
    String.raw`(?m)^[ \t-]+token:[ \t]*["']?([A-Za-z0-9._~+/=:-]{8,})["']?[ \t]*$`,
    [],
    KUBECONFIG_WORDS,
    KUBECONFIG_DOCS,
    { file_requires: KUBECONFIG, generic: true },
  ),
  file(
    "kubeconfig-user-password",
    "Basic-auth password of a kubeconfig user",
    String.raw`(?m)^[ \t-]+password:[ \t]*["']?([^\s"'#]{4,})["']?[ \t]*$`,
    [],
    KUBECONFIG_WORDS,
    KUBECONFIG_DOCS,
    { file_requires: KUBECONFIG },
  ),
  // `client-key-data` is base64 of a PEM private key: `LS0tLS1CRUdJTi` is base64 of `-----BEGIN`.
  file(
    "kubeconfig-client-key",
    "Client private key (client-key-data) of a kubeconfig user",
    String.raw`(?m)^[ \t-]+client-key-data:[ \t]*["']?(LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})`,
    [],
    KUBECONFIG_WORDS,
    KUBECONFIG_DOCS,
    { file_requires: KUBECONFIG, checks: ["base64-pem-private-key"] },
  ),
  // Terraform state keeps every resource attribute in clear JSON, sensitive ones included:
  // passwords, keys, tokens, connection strings, private keys in PEM (with `\n` escapes).
  file(
    "terraform-state-secret",
    "Secret attribute in a Terraform state file",
    String.raw`"[a-z0-9_]*(?:password|secret|token|private_key[a-z_]*|access_key|secret_key|api_key|auth_key|connection_string|master_key|primary_key|secondary_key|sas_key)"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.){6,})"`,
    [String.raw`\.tfstate(?:\.backup)?$`],
    ["password", "secret", "token", "key", "connection_string"],
    "https://developer.hashicorp.com/terraform/language/state/sensitive-data",
    { min_entropy: 2.5 },
  ),
  // JDBC URLs: a `password` query parameter (MySQL, MariaDB, PostgreSQL), or Oracle's
  // `jdbc:oracle:thin:user/password@host`. SQL Server's `;password=` properties are the
  // `connection-string-password` rule's (credentials-in-urls).
  file(
    "jdbc-url-password",
    "Password in a JDBC connection URL",
    String.raw`jdbc:[a-z0-9]+:[^\s"'<>\x60]*?[?&](?i:password|pwd)=([^;&\s"'<>\x60]{3,})`,
    [],
    ["jdbc:"],
    "https://dev.mysql.com/doc/connector-j/en/connector-j-reference-jdbc-url-format.html",
  ),
  file(
    "jdbc-oracle-password",
    "Password in an Oracle JDBC connection URL (user/password@host)",
    String.raw`jdbc:oracle:(?:thin|oci8?):[A-Za-z0-9_$#]+/([^@\s"'<>\x60/]{3,})@`,
    [],
    ["jdbc:oracle"],
    "https://docs.oracle.com/en/database/oracle/oracle-database/23/jjdbc/data-sources-and-URLs.html",
  ),
];
