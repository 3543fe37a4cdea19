// The identity service's configuration variables, declared once: its own process (bin.ts) and
// the all-in-one process read the same ones (README, Configuration).
import { z } from "zod";
import { addressVar, DEFAULT_ADDRESSES, DEFAULT_GRPC_PORTS, grpcServiceConfig } from "@verdict/runtime";
import { parseKey } from "./domain/apiKey.js";

export const identityConfig = z.object({
  /** The instance operator's key; unset (or empty): generated and printed once on the first start. */
  VERDICT_BOOTSTRAP_API_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || parseKey(v).ok, {
      message: "must be a Verdict key (vdt_key_<prod|test>_ + 32 base62 characters + 6-character checksum)",
    })
    .transform((v) => v || undefined),
});

/** The identity service as its own process (bin.ts). */
export const identityProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.identity).extend({
  ...identityConfig.shape,
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
});
