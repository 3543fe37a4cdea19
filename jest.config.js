// Jest runs in native ESM mode (node --experimental-vm-modules): our packages are ESM and so are
// several dependencies, and we never mock modules, which is the one thing ESM mode cannot do.
// ts-jest only transpiles (isolatedModules); `pnpm lint` type-checks.
const tsJest = ["ts-jest", { useESM: true, tsconfig: "<rootDir>/tsconfig.test.json" }];
// Every @verdict package resolves to its sources, so a test exercises the code as it is now,
// never a dist/ left over from an earlier build.
const LIBS = "bus|cli|kit|mcp-tools|outbox|proto|runtime|sdk|store";
const SERVICES = "all-in-one|compliance|evaluation|gateway|identity|mcp|policy|webhooks";
const common = {
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": tsJest },
  moduleNameMapper: {
    [`^@verdict/(${LIBS})$`]: "<rootDir>/libs/$1/src/index.ts",
    [`^@verdict/(${SERVICES})$`]: "<rootDir>/services/$1/src/index.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  testEnvironment: "node",
};

// Test files by tier (regular expressions on the path); every other *.test.ts beside the code is a unit test.
const TRANSPORT = [
  "/(libs|services)/[^/]+/src/(.*/)?grpc\\.test\\.ts$",
  // Evaluation's queued work and its queue caps, through its gRPC server and the policy and
  // identity services'.
  "/services/evaluation/src/async\\.test\\.ts$",
  "/services/evaluation/src/queue\\.test\\.ts$",
  // The HTTP edges on real sockets: the SDK's transport against an HTTP server, and the
  // gateway's connection draining on shutdown.
  "/libs/sdk/src/transport\\.test\\.ts$",
  "/services/gateway/src/http/drain\\.test\\.ts$",
];
const MEDIUM = [
  // FairPool on real worker threads (the unit tier starts none).
  "/libs/runtime/src/pool\\.test\\.ts$",
  // Scan threads that start warm, and the synchronous deadline, on real scan threads.
  "/services/evaluation/src/warmEngines\\.test\\.ts$",
  // A large scan's slices let another organization's through, on a real scan thread.
  "/services/evaluation/src/usecases/scanSlices\\.test\\.ts$",
  // SSO against identity providers' metadata over real HTTP, with certificates made by openssl.
  "/services/identity/src/usecases/sso/(saml|refreshSamlCertificates|oidcDiscovery)\\.test\\.ts$",
  "/libs/store/src/mongo\\.test\\.ts$",
  // The evaluation service's queue ledger racing on a MongoDB-wire server (two connections).
  "/services/evaluation/src/queueLedger\\.mongo\\.test\\.ts$",
  // Sign-in throttles' compare-and-set racing on a MongoDB-wire server (two connections).
  "/services/identity/src/usecases/sessions/throttle\\.mongo\\.test\\.ts$",
  "/libs/bus/src/kafka\\.test\\.ts$",
  "/libs/outbox/src/outbox\\.test\\.ts$",
  // The outbound guard (webhooks, SSO) against servers on the loopback interface.
  "/libs/kit/src/egress\\.test\\.ts$",
  "/services/webhooks/src/egress\\.test\\.ts$",
  "/services/compliance/src/domain/oscal\\.test\\.ts$",
  "/services/compliance/src/usecases/reports\\.test\\.ts$",
  // Runs `pnpm docs:config` (a build, then the generator) as docs/development.md says.
  "/services/all-in-one/src/docsConfigCommand\\.test\\.ts$",
];

export default {
  // A global option (ignored inside projects). Black-box suites start real processes and send
  // hundreds of requests, and unit suites start gRPC services: 5 s is too tight on a shared
  // 2-core machine; a test that hangs still fails. It bounds beforeAll hooks too, which wait up
  // to 90 s for a started Verdict (test/support/ready.ts: starts took over 30 s on a loaded CI
  // machine), so it must be longer than that.
  testTimeout: 120_000,
  // Worker threads and spawned processes run dist/: rebuilt (incrementally) before any test.
  globalSetup: "<rootDir>/jest.global-setup.js",
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
      testMatch: ["<rootDir>/{libs,services}/*/src/**/*.test.ts", "<rootDir>/test/docs/**/*.test.ts"],
      testPathIgnorePatterns: [...TRANSPORT, ...MEDIUM],
    },
    // - transport: a service behind its real gRPC server (grpc.test.ts), called over the wire, and
    //   the HTTP edges (SDK transport, gateway drain) on real sockets.
    { ...common, displayName: "transport", rootDir: ".", testRegex: TRANSPORT },
    // - medium: the real adapters and checkers (MongoDB wire, Kafka, HTTP egress, report and
    //   OSCAL tooling threads and processes).
    { ...common, displayName: "medium", rootDir: ".", testRegex: MEDIUM },
    { ...common, displayName: "e2e", rootDir: ".", testMatch: ["<rootDir>/test/e2e/**/*.test.ts"] },
    // The web dashboard in Debian's Chromium (playwright-core) against a running all-in-one.
    { ...common, displayName: "portal", rootDir: ".", testMatch: ["<rootDir>/test/portal/**/*.test.ts"] },
    { ...common, displayName: "adversarial", rootDir: ".", testMatch: ["<rootDir>/test/adversarial/**/*.test.ts"] },
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
