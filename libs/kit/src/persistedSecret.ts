// A secret an instance generates once and keeps in its data directory (mode 0600), for keys an
// operator may leave unset on a laptop: the report-link signing key, the webhook master key.
// Deployments set them from their secret store instead; several replicas must share them.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The configured value, else the one kept in `<dataDir>/<fileName>`, else a new one kept there. */
export function persistedSecret(
  configured: string | undefined,
  dataDir: string,
  fileName: string,
  generate = () => randomBytes(32).toString("base64url"),
): string {
  if (configured) return configured;
  const file = join(dataDir, fileName);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = generate();
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
