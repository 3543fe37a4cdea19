// Provider families D–K (issue 29), each from the provider's own page, source or SDK on its token
// format. Self-identifying tokens by their prefix; a generic shape only after the provider's keyword.
import type { ProviderFamily } from "../tokenRules.js";
import { HEX32, HEX64, named, prefixed } from "./shapes.js";

// Where a prefix is also the start of words (`EXOPLANET…`), letters alone after it are a word, not a key.
const lettersAfter = (family: ProviderFamily, prefix: string): ProviderFamily => ({
  ...family,
  options: { allowlist: [`^${prefix}[A-Za-z]+$`] },
});

export const FAMDK_FAMILIES: ProviderFamily[] = [
  prefixed(
    "docker-swarm-join-token",
    "Docker Swarm",
    "join token (root CA digest and secret, base 36)",
    "SWMTKN-1-",
    "SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}",
    "https://github.com/moby/swarmkit/blob/master/ca/config.go",
  ),
  prefixed(
    "docker-swarm-unlock-key",
    "Docker Swarm",
    "unlock key of an autolocked swarm",
    "SWMKEY-1-",
    "SWMKEY-1-[A-Za-z0-9+/]{43}",
    "https://docs.docker.com/engine/swarm/swarm_manager_locking/",
  ),
  prefixed(
    "devcycle-server-sdk-key",
    "DevCycle",
    "server-side SDK key",
    "dvc_server_",
    "dvc_server_[A-Za-z0-9_-]{32,120}",
    "https://docs.devcycle.com/essentials/keys",
  ),
  lettersAfter(
    prefixed(
      "exoscale-api-key",
      "Exoscale",
      "API key (key id of an API key and secret pair)",
      "EXO",
      "EXO[A-Za-z0-9]{24}",
      "https://community.exoscale.com/product/iam/how-to/key-mgmt",
    ),
    "EXO",
  ),
  prefixed(
    "evervault-scoped-api-key",
    "Evervault",
    "scoped API key (version, secret, app hash)",
    "ev:key:",
    "ev:key:[0-9]{1,3}:[A-Za-z0-9]{20,100}:[A-Za-z0-9+/]{6}:[A-Za-z0-9+/]{4,12}",
    "https://github.com/evervault/evervault-ruby/blob/main/lib/evervault/utils/validation_utils.rb",
  ),
  prefixed(
    "datastax-astra-application-token",
    "DataStax Astra",
    "application token (AstraCS, client id, secret)",
    "AstraCS:",
    "AstraCS:[A-Za-z0-9]{24}:[A-Za-z0-9]{64}",
    "https://github.com/datastax/astra-cli/blob/main/src/main/java/com/dtsx/astra/cli/core/models/AstraToken.java",
  ),
  prefixed(
    "hashicorp-vault-recovery-token",
    "HashiCorp Vault",
    "recovery token",
    "hvr.",
    String.raw`hvr\.[A-Za-z0-9_-]{24,200}`,
    "https://github.com/hashicorp/vault/blob/main/sdk/helper/consts/token_consts.go",
  ),
  named(
    "jenkins-api-token",
    "Jenkins",
    "user API token (version 11, 32 hexadecimal characters)",
    ["jenkins"],
    "11[a-f0-9]{32}",
    "https://github.com/jenkinsci/jenkins/blob/master/core/src/main/java/jenkins/security/apitoken/ApiTokenStore.java",
  ),
  named(
    "discourse-api-key",
    "Discourse",
    "API key (64 hexadecimal characters)",
    ["discourse"],
    HEX64,
    "https://github.com/discourse/discourse/blob/main/app/models/api_key.rb",
  ),
  prefixed(
    "headscale-api-key",
    "Headscale",
    "API key (public prefix and secret)",
    "hskey-api-",
    "hskey-api-[A-Za-z0-9_-]{12}-[A-Za-z0-9_-]{64}",
    "https://github.com/juanfont/headscale/blob/main/hscontrol/db/api_key.go",
  ),
  prefixed(
    "garage-access-key-id",
    "Garage (S3-compatible object storage)",
    "access key id",
    "GK",
    "GK[a-f0-9]{24}",
    "https://github.com/deuxfleurs-org/garage/blob/main/doc/drafts/admin-api.md",
  ),
  named(
    "jellyfin-api-key",
    "Jellyfin",
    "API key (a GUID as 32 hexadecimal characters)",
    ["jellyfin"],
    HEX32,
    "https://github.com/jellyfin/jellyfin/blob/master/src/Jellyfin.Database/Jellyfin.Database.Implementations/Entities/Security/ApiKey.cs",
  ),
  named(
    "influxdb-api-token",
    "InfluxDB",
    "API token (64 random bytes, URL-safe base64)",
    ["influx", "influxdb"],
    "[A-Za-z0-9_-]{86}==",
    "https://github.com/influxdata/influxdb/blob/main/rand/token.go",
  ),
];
