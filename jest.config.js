// Jest runs in native ESM mode (node --experimental-vm-modules): our packages are ESM and so are
// several dependencies, and we never mock modules, which is the one thing ESM mode cannot do.
// ts-jest only transpiles (isolatedModules); `pnpm lint` type-checks.
const tsJest = ["ts-jest", { useESM: true, tsconfig: "<rootDir>/tsconfig.test.json" }];
const common = {
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": tsJest },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testEnvironment: "node",
};

export default {
  // A global option (ignored inside projects). Black-box suites start real processes and send
  // hundreds of requests, and unit suites start gRPC services: 5 s is too tight on a shared
  // 2-core machine; a test that hangs still fails.
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: "unit", rootDir: ".", testMatch: ["<rootDir>/{libs,services}/*/src/**/*.test.ts"] },
    { ...common, displayName: "e2e", rootDir: ".", testMatch: ["<rootDir>/test/e2e/**/*.test.ts"] },
    { ...common, displayName: "adversarial", rootDir: ".", testMatch: ["<rootDir>/test/adversarial/**/*.test.ts"] },
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
