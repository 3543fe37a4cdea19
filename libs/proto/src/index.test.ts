// Every service's proto file loads with proto-loader (protobufjs's parser), as each service does
// at start for gRPC server reflection. That parser reads a narrower text format than buf, which
// `pnpm lint` runs: a list of messages in an option written as `[{…}]` passes buf lint and stops
// the service from starting, so it is written as one `{…}` per element.
import { describe, expect, it } from "@jest/globals";
import { SERVICE_NAMES, reflectionDefinition } from "./index.js";

describe("the proto sources", () => {
  it.each(Object.entries(SERVICE_NAMES))("%s loads for reflection, with its service", (service, name) => {
    const definition = reflectionDefinition(service as keyof typeof SERVICE_NAMES);
    expect(Object.keys(definition)).toContain(name);
  });
});
