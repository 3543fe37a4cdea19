// Credential files of the kinds issue 29 lists, written for the secrets dev set from each format's
// own documentation (the `doc` of each case), with made-up values: none of them is a live
// credential, and none is copied from a rule fixture of this repository or from another scanner.
//
// Labelling rule: every value listed in `secrets` is a credential the file's format stores there
// (a password, token, key or encrypted secret); the line it stands on is a positive. A case with
// no `secrets` is a negative: a file of the same kind holding no credential (a variable reference,
// an empty field, a credential helper, a certificate, public settings), flagged if a tool reports
// anything in it. Token values of formats that carry a checksum (GitHub `ghp_`, npm `npm_`) are
// generated with a valid one, as every real token of the format has. Hosts of positives are not
// the documentation domains of RFC 2606 (example.com, .example): a real file names a real host, and
// scanners may read a credential for example.com as documentation.
const docs = {
  jenkins: "https://www.jenkins.io/doc/developer/security/secrets/",
  npmrc: "https://docs.npmjs.com/cli/v11/configuring-npm/npmrc#auth-related-configuration",
  pypirc: "https://packaging.python.org/en/latest/specifications/pypirc/",
  netrc: "https://www.gnu.org/software/inetutils/manual/html_node/The-_002enetrc-file.html",
  gitCredentials: "https://git-scm.com/docs/git-credential-store#_storage_format",
  docker: "https://docs.docker.com/reference/cli/docker/login/#credential-stores",
  kubeconfig: "https://kubernetes.io/docs/reference/config-api/kubeconfig.v1/",
  tfstate: "https://developer.hashicorp.com/terraform/language/state/sensitive-data",
  jdbcMysql: "https://dev.mysql.com/doc/connector-j/en/connector-j-reference-jdbc-url-format.html",
  jdbcPostgres: "https://jdbc.postgresql.org/documentation/use/#connection-parameters",
  jdbcSqlServer: "https://learn.microsoft.com/en-us/sql/connect/jdbc/building-the-connection-url",
  jdbcOracle: "https://docs.oracle.com/en/database/oracle/oracle-database/23/jjdbc/data-sources-and-URLs.html",
  odbc: "https://learn.microsoft.com/en-us/sql/connect/odbc/dsn-connection-string-attribute",
  dotenv: "https://github.com/motdotla/dotenv#what-rules-does-the-parsing-engine-follow",
  direnv: "https://direnv.net/man/direnv-stdlib.1.html",
};

const JENKINS_XML_HEAD = `<?xml version='1.1' encoding='UTF-8'?>
<com.cloudbees.plugins.credentials.SystemCredentialsProvider plugin="credentials@1337.v60b_d7b_c7b_c9f">
  <domainCredentialsMap class="hudson.util.CopyOnWriteMap$Hash">
    <entry>
      <com.cloudbees.plugins.credentials.domains.Domain>
        <specifications/>
      </com.cloudbees.plugins.credentials.domains.Domain>
      <java.util.concurrent.CopyOnWriteArrayList>
`;
const JENKINS_XML_TAIL = `      </java.util.concurrent.CopyOnWriteArrayList>
    </entry>
  </domainCredentialsMap>
</com.cloudbees.plugins.credentials.SystemCredentialsProvider>
`;

// base64 of a PEM certificate: public, in every kubeconfig (the cluster's CA, a client certificate).
const CERT_DATA =
  "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmxXcmY3aHQwVHM2d202WmpUVE0yV25BdVgxUmt1dm9QQ3FGbE1GUDZECi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K";
// A kubeconfig's header and one cluster.
const kubeconfig = (cluster, server) => `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: ${CERT_DATA}
    server: ${server}
  name: ${cluster}
`;

export const CREDENTIAL_FILES = [
  {
    id: "jenkins-credentials",
    group: "jenkins credentials.xml",
    doc: docs.jenkins,
    path: "jenkins_home/credentials.xml",
    content: `${JENKINS_XML_HEAD}        <com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
          <scope>GLOBAL</scope>
          <id>nexus-deploy</id>
          <description>Nexus deployment user</description>
          <username>deployer</username>
          <password>{AQAAABAAAAAgmWLQ0egr0jax5cOrZPM6fgdYZdf+zeNBhV7Xt66ihWpSElu9ONcCNcdQ4C8rfxR7}</password>
          <usernameSecret>false</usernameSecret>
        </com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
        <org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>
          <scope>GLOBAL</scope>
          <id>sonar-token</id>
          <description>SonarQube analysis token</description>
          <secret>{AQAAABAAAAAw9KIecP7plqoe0DCwCJhqOYV9+A1BqNmR3ZGhN/ndn9pVX58vacK8ouQYK/2Dq3ifLr6yWZItgw4+LVTD39QhGw==}</secret>
        </org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>
${JENKINS_XML_TAIL}`,
    secrets: [
      "{AQAAABAAAAAgmWLQ0egr0jax5cOrZPM6fgdYZdf+zeNBhV7Xt66ihWpSElu9ONcCNcdQ4C8rfxR7}",
      "{AQAAABAAAAAw9KIecP7plqoe0DCwCJhqOYV9+A1BqNmR3ZGhN/ndn9pVX58vacK8ouQYK/2Dq3ifLr6yWZItgw4+LVTD39QhGw==}",
    ],
  },
  {
    id: "jenkins-credentials-ids-only",
    group: "jenkins credentials.xml",
    doc: docs.jenkins,
    path: "jenkins_home/credentials.xml",
    content: `${JENKINS_XML_HEAD}        <com.cloudbees.jenkins.plugins.awscredentials.AWSCredentialsImpl>
          <scope>GLOBAL</scope>
          <id>aws-prod</id>
          <description>Uses the instance profile</description>
          <iamRoleArn>arn:aws:iam::123456789012:role/jenkins-deploy</iamRoleArn>
          <stsTokenDuration>3600</stsTokenDuration>
        </com.cloudbees.jenkins.plugins.awscredentials.AWSCredentialsImpl>
${JENKINS_XML_TAIL}`,
    secrets: [],
  },
  {
    id: "npmrc-tokens",
    group: ".npmrc",
    doc: docs.npmrc,
    path: "project/.npmrc",
    content: `registry=https://registry.npmjs.org/
@acme:registry=https://npm.pkg.github.com/
//registry.npmjs.org/:_authToken=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
//npm.pkg.github.com/:_authToken=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
//nexus.build.acmewidgets.net:8081/repository/npm-private/:_auth=Y2ktYm90OnVDU21ISUM3cHQ0b0ZlanB3UQ==
always-auth=true
`,
    secrets: [
      "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",
      "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",
      "Y2ktYm90OnVDU21ISUM3cHQ0b0ZlanB3UQ==",
    ],
  },
  {
    id: "npmrc-password",
    group: ".npmrc",
    doc: docs.npmrc,
    path: ".npmrc",
    content: `//artifactory.acmewidgets.net/artifactory/api/npm/npm-virtual/:username=builder
//artifactory.acmewidgets.net/artifactory/api/npm/npm-virtual/:_password=V05COWtaOGg5Uk5uWFNJSA==
//artifactory.acmewidgets.net/artifactory/api/npm/npm-virtual/:email=builder@acmewidgets.net
`,
    secrets: ["V05COWtaOGg5Uk5uWFNJSA=="],
  },
  {
    id: "npmrc-env-reference",
    group: ".npmrc",
    doc: docs.npmrc,
    path: ".npmrc",
    content: `registry=https://registry.npmjs.org/
//registry.npmjs.org/:_authToken=\${NPM_TOKEN}
save-exact=true
engine-strict=true
`,
    secrets: [],
  },
  {
    id: "pypirc-passwords",
    group: ".pypirc",
    doc: docs.pypirc,
    path: "home/.pypirc",
    content: `[distutils]
index-servers =
    pypi
    internal

[pypi]
username = __token__
password = pypi-AgEIcHlwaS5vcmcCJGQ1YmE1ODZmLTNkM2UtNDZhNS05MDA2LWFlZDZkZTZjMTdmNwACKlszLCI0MTc3NjdhMTg3MzViODQ5OThjMGQ3MmE1MWZiMmE3MyJdAAAGIHpZcxGzQw

[internal]
repository = https://pypi.acmewidgets.net/simple/
username = release-bot
password = Brass-Lantern-42-Orchard
`,
    secrets: [
      "pypi-AgEIcHlwaS5vcmcCJGQ1YmE1ODZmLTNkM2UtNDZhNS05MDA2LWFlZDZkZTZjMTdmNwACKlszLCI0MTc3NjdhMTg3MzViODQ5OThjMGQ3MmE1MWZiMmE3MyJdAAAGIHpZcxGzQw",
      "Brass-Lantern-42-Orchard",
    ],
  },
  {
    id: "pypirc-no-password",
    group: ".pypirc",
    doc: docs.pypirc,
    path: "home/.pypirc",
    content: `[distutils]
index-servers =
    testpypi

[testpypi]
repository = https://test.pypi.org/legacy/
username = __token__
`,
    secrets: [],
  },
  {
    id: "netrc",
    group: ".netrc",
    doc: docs.netrc,
    path: "home/.netrc",
    content: `machine api.heroku.com
  login alice@acmewidgets.net
  password d5ba586f-3d3e-46a5-9006-aed6de6c17f7
machine ftp.acmewidgets.net login backup password ZxYrLrBDE1kAhdGdSlg9
`,
    secrets: ["d5ba586f-3d3e-46a5-9006-aed6de6c17f7", "ZxYrLrBDE1kAhdGdSlg9"],
  },
  {
    id: "netrc-login-only",
    group: ".netrc",
    doc: docs.netrc,
    path: "home/.netrc",
    content: `machine mirror.acmewidgets.net
  login anonymous
macdef init
  cd /pub
  binary

`,
    secrets: [],
  },
  {
    id: "git-credentials",
    group: ".git-credentials",
    doc: docs.gitCredentials,
    path: "home/.git-credentials",
    content: `https://alice: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@github.com
https://bob:Winter%21Harbour%2019@gitlab.acmewidgets.net
`,
    secrets: ["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", "Winter%21Harbour%2019"],
  },
  {
    id: "gitconfig-credential-helper",
    group: ".git-credentials",
    doc: docs.gitCredentials,
    path: "home/.gitconfig",
    content: `[user]
  name = Alice Example
  email = alice@acmewidgets.net
[credential]
  helper = store --file ~/.git-credentials
[credential "https://github.com"]
  username = alice
`,
    secrets: [],
  },
  {
    id: "docker-config",
    group: "docker config.json",
    doc: docs.docker,
    path: "home/.docker/config.json",
    content: `{
  "auths": {
    "https://index.docker.io/v1/": {
      "auth": "ZGVwbG95ZXI6THBtR2Z4NHBmWUhHN21qTnRKVlc="
    },
    "registry.acmewidgets.net:5000": {
      "auth": "Y2k6UkZZMnNoWWxzdERSZFRNbHhxNlh5cDhT"
    }
  }
}
`,
    secrets: ["ZGVwbG95ZXI6THBtR2Z4NHBmWUhHN21qTnRKVlc=", "Y2k6UkZZMnNoWWxzdERSZFRNbHhxNlh5cDhT"],
  },
  {
    id: "docker-config-creds-store",
    group: "docker config.json",
    doc: docs.docker,
    path: "home/.docker/config.json",
    content: `{
  "auths": {
    "https://index.docker.io/v1/": {},
    "ghcr.io": {}
  },
  "credsStore": "desktop",
  "credHelpers": {
    "123456789012.dkr.ecr.eu-west-1.amazonaws.com": "ecr-login"
  }
}
`,
    secrets: [],
  },
  {
    id: "kubeconfig",
    group: "kubeconfig",
    doc: docs.kubeconfig,
    path: "home/.kube/config",
    content: `${kubeconfig("prod", "https://k8s.prod.acmewidgets.net:6443")}contexts:
- context:
    cluster: prod
    user: deployer
  name: prod
- context:
    cluster: prod
    user: admin
  name: prod-admin
current-context: prod
users:
- name: deployer
  user:
    token: lgXejIYn1mFllmDCKZBVruvEC6EuLvMsQimUM883
- name: admin
  user:
    client-certificate-data: ${CERT_DATA}
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBaVRCU0g4bWpUY0NuaVNYdGJiSDZzczJuS0h0cmRZYkNxRUNXZ1lONgotLS0tLUVORCBSU0EgUFJJVkFURSBLRVktLS0tLQo=
- name: legacy
  user:
    username: admin
    password: llbvGuWQf9aSNC
`,
    secrets: [
      "lgXejIYn1mFllmDCKZBVruvEC6EuLvMsQimUM883",
      "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBaVRCU0g4bWpUY0NuaVNYdGJiSDZzczJuS0h0cmRZYkNxRUNXZ1lONgotLS0tLUVORCBSU0EgUFJJVkFURSBLRVktLS0tLQo=",
      "llbvGuWQf9aSNC",
    ],
  },
  {
    id: "kubeconfig-exec-plugin",
    group: "kubeconfig",
    doc: docs.kubeconfig,
    path: "home/.kube/config",
    content: `${kubeconfig("eks-prod", "https://ABCDEF0123456789.gr7.eu-west-1.eks.amazonaws.com")}contexts:
- context:
    cluster: eks-prod
    user: eks-prod
  name: eks-prod
current-context: eks-prod
users:
- name: eks-prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: aws
      args:
      - eks
      - get-token
      - --cluster-name
      - prod
`,
    secrets: [],
  },
  {
    id: "terraform-state",
    group: "terraform state",
    doc: docs.tfstate,
    path: "infra/terraform.tfstate",
    content: `{
  "version": 4,
  "terraform_version": "1.9.8",
  "serial": 12,
  "lineage": "0f6b3c52-9a51-4f7e-8f0e-3b1c2d4e5f60",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "random_password",
      "name": "db",
      "provider": "provider[\\"registry.terraform.io/hashicorp/random\\"]",
      "instances": [
        {
          "schema_version": 3,
          "attributes": {
            "id": "none",
            "length": 24,
            "result": "q7#Vd2!mLx9@Tr4&Ze8pWb1K",
            "special": true
          },
          "sensitive_attributes": [[{"type": "get_attr", "value": "result"}]]
        }
      ]
    },
    {
      "mode": "managed",
      "type": "aws_db_instance",
      "name": "main",
      "provider": "provider[\\"registry.terraform.io/hashicorp/aws\\"]",
      "instances": [
        {
          "schema_version": 2,
          "attributes": {
            "identifier": "app-prod",
            "engine": "postgres",
            "username": "app",
            "password": "RFY2shYlstDRdTMlxq6Xyp8S",
            "port": 5432
          }
        }
      ]
    },
    {
      "mode": "managed",
      "type": "aws_iam_access_key",
      "name": "ci",
      "provider": "provider[\\"registry.terraform.io/hashicorp/aws\\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "id": "AKIA2RDK4NQXJ7WL5M3B",
            "secret": "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",
            "status": "Active",
            "user": "ci"
          }
        }
      ]
    }
  ]
}
`,
    secrets: ["q7#Vd2!mLx9@Tr4&Ze8pWb1K", "RFY2shYlstDRdTMlxq6Xyp8S", "Yr1sVVOLTwh1o8OPHqbWs7+tAjSg2pP8PYUTnrGJ"],
  },
  {
    id: "terraform-state-no-secrets",
    group: "terraform state",
    doc: docs.tfstate,
    path: "infra/terraform.tfstate",
    content: `{
  "version": 4,
  "terraform_version": "1.9.8",
  "serial": 3,
  "lineage": "7a1d9e40-2b3c-4d5e-8f90-a1b2c3d4e5f6",
  "outputs": {
    "bucket_arn": { "value": "arn:aws:s3:::acme-artifacts", "type": "string" }
  },
  "resources": [
    {
      "mode": "managed",
      "type": "aws_s3_bucket",
      "name": "artifacts",
      "provider": "provider[\\"registry.terraform.io/hashicorp/aws\\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "arn": "arn:aws:s3:::acme-artifacts",
            "bucket": "acme-artifacts",
            "id": "acme-artifacts",
            "force_destroy": false
          }
        }
      ]
    }
  ]
}
`,
    secrets: [],
  },
  {
    id: "jdbc-urls",
    group: "jdbc",
    doc: `${docs.jdbcMysql} ${docs.jdbcPostgres} ${docs.jdbcSqlServer} ${docs.jdbcOracle}`,
    path: "src/main/resources/application.properties",
    content: `spring.datasource.url=jdbc:postgresql://orders-db.acmewidgets.net:5432/orders?user=orders&password=WNB9kZ8h9RNnXSIH&ssl=true
reporting.datasource.url=jdbc:mysql://reporting-db.acmewidgets.net:3306/reports?user=reporter&password=Copper-Kettle-77
legacy.datasource.url=jdbc:sqlserver://mssql01.acmewidgets.net:1433;databaseName=Legacy;user=legacy_app;password=Tq8#nVw2Lp5z;encrypt=true
billing.datasource.url=jdbc:oracle:thin:billing/Saffron9Meadow@//ora01.acmewidgets.net:1521/BILLPDB
`,
    secrets: ["WNB9kZ8h9RNnXSIH", "Copper-Kettle-77", "Tq8#nVw2Lp5z", "Saffron9Meadow"],
  },
  {
    id: "jdbc-urls-no-password",
    group: "jdbc",
    doc: `${docs.jdbcPostgres} ${docs.jdbcSqlServer}`,
    path: "src/main/resources/application.properties",
    content: `spring.datasource.url=jdbc:postgresql://orders-db.acmewidgets.net:5432/orders?ssl=true&sslmode=verify-full
spring.datasource.username=orders
spring.datasource.password=\${DB_PASSWORD}
legacy.datasource.url=jdbc:sqlserver://mssql01.acmewidgets.net:1433;databaseName=Legacy;integratedSecurity=true;encrypt=true
`,
    secrets: [],
  },
  {
    id: "odbc-connection-strings",
    group: "odbc",
    doc: docs.odbc,
    path: "config/database.ini",
    content: `[warehouse]
connection = Driver={ODBC Driver 18 for SQL Server};Server=tcp:dw.acmewidgets.net,1433;Database=warehouse;Uid=etl_loader;Pwd=Granite!Falcon31;Encrypt=yes;TrustServerCertificate=no;
[reporting]
connection = Driver={PostgreSQL Unicode};Server=pg-reports.acmewidgets.net;Port=5432;Database=reports;Uid=reader;Pwd=xK4mPq9Rt2Vw;
`,
    secrets: ["Granite!Falcon31", "xK4mPq9Rt2Vw"],
  },
  {
    id: "odbc-trusted-connection",
    group: "odbc",
    doc: docs.odbc,
    path: "config/database.ini",
    content: `[warehouse]
connection = Driver={ODBC Driver 18 for SQL Server};Server=tcp:dw.acmewidgets.net,1433;Database=warehouse;Trusted_Connection=yes;Encrypt=yes;
`,
    secrets: [],
  },
  {
    id: "dotenv-production",
    group: ".env",
    doc: docs.dotenv,
    path: "app/.env.production",
    content: `NODE_ENV=production
PORT=8080
DATABASE_URL=postgres://app:Velvet7Thunder@pg-primary.acmewidgets.net:5432/app
SECRET_KEY_BASE=417767a18735b84998c0d72a51fb2a739ef90227305175739380967b2b4b7c184e1812516682686a3e57ff5a6702a9d5563434ef92c9242ed118a8044fef124f
SESSION_SECRET="c42f1aec3def2e5451078ad52daee3b0d2b5cf0e855f4adfedad801a95bf28d2"
SMTP_PASSWORD='qS4Ed26Z74en6Aqu5PLwVWE9FbNao1ky'
`,
    secrets: [
      "Velvet7Thunder",
      "417767a18735b84998c0d72a51fb2a739ef90227305175739380967b2b4b7c184e1812516682686a3e57ff5a6702a9d5563434ef92c9242ed118a8044fef124f",
      "c42f1aec3def2e5451078ad52daee3b0d2b5cf0e855f4adfedad801a95bf28d2",
      "qS4Ed26Z74en6Aqu5PLwVWE9FbNao1ky",
    ],
  },
  {
    id: "dotenv-local",
    group: ".env",
    doc: docs.dotenv,
    path: "web/.env.local",
    content: `# local overrides, not committed (but this one was)
NEXT_PUBLIC_SITE_URL=http://localhost:3000
AUTH_SECRET=Hk2vQ9mZ4xTb7Lw1Nc8Rp3Ys6Df0Gj5K
`,
    secrets: ["Hk2vQ9mZ4xTb7Lw1Nc8Rp3Ys6Df0Gj5K"],
  },
  {
    id: "envrc",
    group: ".env",
    doc: docs.direnv,
    path: "service/.envrc",
    content: `export AWS_PROFILE=dev
export AWS_REGION=eu-west-1
export DB_PASSWORD=Maple-Orbit-2047
`,
    secrets: ["Maple-Orbit-2047"],
  },
  {
    id: "dotenv-example",
    group: ".env",
    doc: docs.dotenv,
    path: "app/.env.example",
    content: `NODE_ENV=development
PORT=3000
DATABASE_URL=postgres://app:password@localhost:5432/app
SECRET_KEY_BASE=
SESSION_SECRET=change-me
SMTP_PASSWORD=
`,
    secrets: [],
  },
  {
    id: "dotenv-no-secrets",
    group: ".env",
    doc: docs.dotenv,
    path: "app/.env",
    content: `NODE_ENV=production
PORT=8080
LOG_LEVEL=info
FEATURE_FLAGS=search,checkout
DATABASE_HOST=pg-primary.acmewidgets.net
CACHE_TTL_SECONDS=300
`,
    secrets: [],
  },
];
