// Jest runs in native ESM mode (node --experimental-vm-modules): our packages are ESM and so are
// several dependencies, and we never mock modules, which is the one thing ESM mode cannot do.
// ts-jest only transpiles (isolatedModules); `pnpm lint` type-checks.
const tsJest = ["ts-jest", { useESM: true, tsconfig: "<rootDir>/tsconfig.test.json" }];
// Every @verdict package resolves to its sources, so a test exercises the code as it is now,
// never a dist/ left over from an earlier build.
const LIBS = "bus|cli|kit|mcp-tools|outbox|proto|runtime|sdk|store|structural";
const SERVICES = "all-in-one|compliance|evaluation|gateway|identity|integrations|mcp|policy|webhooks";
const common = {
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": tsJest },
  moduleNameMapper: {
    [`^@verdict/(${LIBS})$`]: "<rootDir>/libs/$1/src/index.ts",
    "^@verdict/kit/checksum$": "<rootDir>/libs/kit/src/checksum.ts",
    [`^@verdict/(${SERVICES})$`]: "<rootDir>/services/$1/src/index.ts",
    // A service's pure part the CLI runs (package.json "exports": "./offline").
    [`^@verdict/(${SERVICES})/offline$`]: "<rootDir>/services/$1/src/offline.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  testEnvironment: "node",
  // Transforms are cached beside the dependencies, not in the temporary directory, which
  // scripts/test.sh and jest.global-setup.js give each run of their own.
  cacheDirectory: "<rootDir>/node_modules/.cache/jest",
};

// The tests beside the code pick their tier by file name (docs/development.md, "Test tiers"):
// `NAME.transport.test.ts` (a real gRPC server or HTTP socket), `NAME.medium.test.ts` (real
// adapters, threads and processes), every other `NAME.test.ts` a unit test. The black-box suites
// pick theirs by directory (test/e2e, test/adversarial, ...).
const BESIDE_CODE = "<rootDir>/{libs,services}/*/src/**/";

export default {
  // A global option (ignored inside projects). Black-box suites start real processes and send
  // hundreds of requests, and unit suites start gRPC services: 5 s is too tight on a shared
  // 2-core machine; a test that hangs still fails. It bounds beforeAll hooks too, which wait up
  // to 90 s for a started Verdict (test/support/ready.ts: starts took over 30 s on a loaded CI
  // machine), so it must be longer than that.
  testTimeout: 120_000,
  // Worker threads and spawned processes run dist/: rebuilt (incrementally) before any test.
  globalSetup: "<rootDir>/jest.global-setup.js",
  // ... which also gives the run its own TMPDIR, removed here.
  globalTeardown: "<rootDir>/jest.global-teardown.js",
  projects: [
    // The tests beside the code, in three tiers (all run by scripts/test.sh; `pnpm test:unit` is
    // the fast inner loop):
    // - unit: domain logic and use cases on fakes and the embedded store; no gRPC server, no
    //   sibling service, no socket, no worker thread, no external process.
    {
      ...common,
      displayName: "unit",
      rootDir: ".",
      // (and test/docs: the documentation's links and anchors resolve)
      testMatch: [`${BESIDE_CODE}*.test.ts`, "<rootDir>/test/docs/**/*.test.ts"],
      testPathIgnorePatterns: ["\\.(transport|medium)\\.test\\.ts$"],
    },
    // - transport (*.transport.test.ts): a service behind its real gRPC server
    //   (grpc.transport.test.ts), called over the wire, and the HTTP edges (SDK transport, gateway
    //   drain) on real sockets.
    { ...common, displayName: "transport", rootDir: ".", testMatch: [`${BESIDE_CODE}*.transport.test.ts`] },
    // - medium (*.medium.test.ts): the real adapters and checkers (MongoDB wire, Kafka, HTTP
    //   egress, report and OSCAL tooling threads and processes).
    { ...common, displayName: "medium", rootDir: ".", testMatch: [`${BESIDE_CODE}*.medium.test.ts`] },
    { ...common, displayName: "e2e", rootDir: ".", testMatch: ["<rootDir>/test/e2e/**/*.test.ts"] },
    // The web dashboard in Debian's Chromium (playwright-core) against a running all-in-one.
    { ...common, displayName: "portal", rootDir: ".", testMatch: ["<rootDir>/test/portal/**/*.test.ts"] },
    { ...common, displayName: "adversarial", rootDir: ".", testMatch: ["<rootDir>/test/adversarial/**/*.test.ts"] },
    // Connected repositories against a real Gitea (scripts/install-gitea.sh builds it).
    { ...common, displayName: "integrations", rootDir: ".", testMatch: ["<rootDir>/test/integrations/**/*.test.ts"] },
    // Enterprise SSO against a real Keycloak (scripts/install-keycloak.sh) in Chromium.
    { ...common, displayName: "sso", rootDir: ".", testMatch: ["<rootDir>/test/sso/**/*.test.ts"] },
    // Distributed mode under faults (a worker killed, Kafka restarted): needs Kafka and the
    // database running (scripts/test.sh starts them).
    { ...common, displayName: "fault", rootDir: ".", testMatch: ["<rootDir>/test/fault/**/*.test.ts"] },
    // The production image under Docker (scripts/test-container.sh builds it and runs this).
    { ...common, displayName: "container", rootDir: ".", testMatch: ["<rootDir>/test/container/**/*.test.ts"] },
    // The Helm chart: static checks (helm lint, kubeconform, kube-score, values schema), then the
    // chart on a real single-node Kubernetes. scripts/test-kube.sh runs both.
    { ...common, displayName: "chart", rootDir: ".", testMatch: ["<rootDir>/test/chart/**/*.test.ts"] },
    { ...common, displayName: "kube", rootDir: ".", testMatch: ["<rootDir>/test/kube/**/*.test.ts"] },
  ],
};
