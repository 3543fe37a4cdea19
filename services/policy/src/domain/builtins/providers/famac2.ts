// Provider families A-C and digits (issue 29, continuing famac.ts), each from its provider's own
// documentation of the token format (`docs`). Fixtures:
// services/policy/fixtures/provider-tokens/famac2.conf.
import type { ProviderFamily } from "../tokenRules.js";
import { prefixed } from "./shapes.js";

const BUILDKITE = "https://buildkite.com/docs/platform/security/tokens";

export const FAMAC2_FAMILIES: ProviderFamily[] = [
  // Cluster agent tokens: bkct_, a short base64 shard id (`MTI`), `.` and the secret (77 in the example).
  prefixed(
    "buildkite-cluster-agent-token",
    "Buildkite",
    "cluster agent token",
    "bkct_",
    String.raw`bkct_[A-Za-z0-9]{2,8}\.[A-Za-z0-9]{40,80}`,
    BUILDKITE,
  ),
  // Packages registry and temporary tokens: bkpt_, a signed message (base64 JSON, `eyJ`), `--` and
  // a 40-character hexadecimal signature.
  prefixed(
    "buildkite-packages-token",
    "Buildkite",
    "packages registry or temporary token",
    "bkpt_",
    "bkpt_eyJ[A-Za-z0-9+/]{40,1000}={0,2}--[a-f0-9]{40}",
    BUILDKITE,
  ),
  // Portal access tokens: bkpat_, a short base64 id (`MTQ`), `_` and 40 hexadecimal characters.
  prefixed(
    "buildkite-portal-token",
    "Buildkite",
    "portal access token",
    "bkpat_",
    "bkpat_[A-Za-z0-9]{2,8}_[a-f0-9]{40}",
    BUILDKITE,
  ),
  // Portal secrets: bkps_, a short base64 id (`Mw`), `_` and hexadecimal characters (60 in the example).
  prefixed(
    "buildkite-portal-secret",
    "Buildkite",
    "portal secret",
    "bkps_",
    "bkps_[A-Za-z0-9]{2,8}_[a-f0-9]{60,64}",
    BUILDKITE,
  ),
];
