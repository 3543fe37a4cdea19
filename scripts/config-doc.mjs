// Writes docs/configuration.md from the configuration schemas (run after `pnpm run build`):
// `pnpm docs:config`. services/all-in-one/src/configDoc.test.ts fails when the file is stale.
import { writeFileSync } from "node:fs";
import { configurationDoc } from "../services/all-in-one/dist/configDoc.js";

const target = new URL("../docs/configuration.md", import.meta.url);
writeFileSync(target, configurationDoc());
console.log(`wrote ${target.pathname}`);
