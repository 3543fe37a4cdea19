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
  // 2-core machine; a test that hangs still fails. It bounds beforeAll hooks too, which wait up
  // to 90 s for a started Verdict (test/support/ready.ts: starts took over 30 s on a loaded CI
  // machine), so it must be longer than that.
  testTimeout: 120_000,
  projects: [
    { ...common, displayName: "unit", rootDir: ".", testMatch: ["<rootDir>/{libs,services}/*/src/**/*.test.ts"] },
    { ...common, displayName: "e2e", rootDir: ".", testMatch: ["<rootDir>/test/e2e/**/*.test.ts"] },
    { ...common, displayName: "adversarial", rootDir: ".", testMatch: ["<rootDir>/test/adversarial/**/*.test.ts"] },
    // Distributed mode under faults (a worker killed, Kafka restarted): needs Kafka and the
    // database running (scripts/test.sh starts them).
    { ...common, displayName: "fault", rootDir: ".", testMatch: ["<rootDir>/test/fault/**/*.test.ts"] },
    // The production image under Docker (scripts/test-container.sh builds it and runs this).
    { ...common, displayName: "container", rootDir: ".", testMatch: ["<rootDir>/test/container/**/*.test.ts"] },
  ],
};
