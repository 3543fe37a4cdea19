#!/usr/bin/env node
// Writes docs/configuration.md from the configuration schemas (needs the built packages:
// `pnpm docs:config` builds first). services/all-in-one/src/configDoc.test.ts fails when the
// committed file is stale.
import { writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { configurationDoc } = await import(`${root}services/all-in-one/dist/configDoc.js`);
writeFileSync(`${root}docs/configuration.md`, configurationDoc());
process.stdout.write(`wrote ${root}docs/configuration.md\n`);
