// Talks to the services' gRPC ports as an operator's tooling would: the standard health
// checking protocol and server reflection (what grpcurl and Kubernetes probes use).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";

const require = createRequire(import.meta.url);
const healthProto = join(dirname(require.resolve("grpc-health-check/package.json")), "proto/health/v1/health.proto");
const reflectionProto = join(
  dirname(require.resolve("@grpc/reflection/package.json")),
  "build/proto/grpc/reflection/v1alpha/reflection.proto",
);

type AnyClient = grpc.Client & Record<string, any>;

function client(protoFile: string, pkgPath: string[], port: number): AnyClient {
  const def = grpc.loadPackageDefinition(loadSync(protoFile, { keepCase: true, enums: String, defaults: true }));
  let ctor: any = def;
  for (const p of pkgPath) ctor = ctor[p];
  return new ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as AnyClient;
}

export function grpcHealth(port: number, service: string): Promise<string> {
  const c = client(healthProto, ["grpc", "health", "v1", "Health"], port);
  return new Promise((resolve, reject) => {
    c.Check({ service }, { deadline: Date.now() + 5000 }, (err: Error | null, res: { status: string }) => {
      c.close();
      if (err) reject(err);
      else resolve(res.status);
    });
  });
}

export function grpcListServices(port: number): Promise<string[]> {
  const c = client(reflectionProto, ["grpc", "reflection", "v1alpha", "ServerReflection"], port);
  return new Promise((resolve, reject) => {
    const call = c.ServerReflectionInfo({ deadline: Date.now() + 5000 });
    call.on("data", (msg: { list_services_response?: { service: { name: string }[] } }) => {
      resolve((msg.list_services_response?.service ?? []).map((s) => s.name));
      call.end();
      c.close();
    });
    call.on("error", reject);
    call.write({ list_services: "" });
  });
}
