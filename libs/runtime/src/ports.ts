// The port layout of a Verdict deployment, in one place: the standalone services' defaults
// (services/<name>/src/config.ts), the all-in-one launcher's offsets from VERDICT_GRPC_BASE_PORT,
// and scripts/stack.sh (which prints it with `node libs/runtime/dist/ports.js`) all read it.
// Nothing but Node's own modules: the stack script runs this file on its own.
import { pathToFileURL } from "node:url";

/** The API (gateway) and the MCP tool server. */
export const HTTP_PORT = 8080;
export const MCP_PORT = 8090;

/** The first gRPC port; each service listens at this plus its offset. */
export const GRPC_BASE_PORT = 50051;
export const GRPC_PORT_OFFSETS = {
  identity: 0,
  policy: 1,
  evaluation: 2,
  compliance: 3,
  webhooks: 4,
  integrations: 5,
} as const;
/** Further evaluation workers of the local stack: base + this + n (n = 2, 3, …: 50062, …). */
export const EXTRA_EVALUATION_WORKER_OFFSET = 9;

export type GrpcServiceName = keyof typeof GRPC_PORT_OFFSETS;

/** The gRPC port of each service given a base port (0: every service takes a free port). */
export function grpcPorts(base: number): Record<GrpcServiceName, number> {
  const port = (offset: number) => (base === 0 ? 0 : base + offset);
  return {
    identity: port(GRPC_PORT_OFFSETS.identity),
    policy: port(GRPC_PORT_OFFSETS.policy),
    evaluation: port(GRPC_PORT_OFFSETS.evaluation),
    compliance: port(GRPC_PORT_OFFSETS.compliance),
    webhooks: port(GRPC_PORT_OFFSETS.webhooks),
    integrations: port(GRPC_PORT_OFFSETS.integrations),
  };
}

/** The gRPC ports a standalone service listens on by default (the stack script uses the same). */
export const DEFAULT_GRPC_PORTS = grpcPorts(GRPC_BASE_PORT);

// `node libs/runtime/dist/ports.js` prints the layout as shell assignments for scripts/stack.sh.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(
    [
      `DEFAULT_HTTP_PORT=${HTTP_PORT}`,
      `DEFAULT_MCP_PORT=${MCP_PORT}`,
      `DEFAULT_GRPC_BASE_PORT=${GRPC_BASE_PORT}`,
      ...Object.entries(GRPC_PORT_OFFSETS).map(([name, offset]) => `OFFSET_${name.toUpperCase()}=${offset}`),
      `OFFSET_EXTRA_EVALUATION=${EXTRA_EVALUATION_WORKER_OFFSET}`,
    ].join("\n") + "\n",
  );
}
