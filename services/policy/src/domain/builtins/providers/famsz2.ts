// Providers S-Z (famsz2, continuing famsz), each from the token generator in the provider's own
// official repository. Both shapes are generic, so they are reported only where the provider is
// named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { named } from "./shapes.js";

export const FAMSZ2_FAMILIES: ProviderFamily[] = [
  named(
    "sonarr-api-key",
    "Sonarr",
    "API key (a GUID without dashes)",
    ["sonarr"],
    "[a-f0-9]{32}",
    "https://github.com/Sonarr/Sonarr/blob/HEAD/src/NzbDrone.Core/Configuration/ConfigFileProvider.cs",
  ),
  named(
    "zammad-api-token",
    "Zammad",
    "API access token (`Authorization: Token token=`)",
    ["zammad"],
    "[A-Za-z0-9_-]{64}",
    "https://github.com/zammad/zammad/blob/HEAD/app/models/token.rb",
  ),
];
