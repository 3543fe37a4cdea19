// The SSO suites' Keycloak (test/support/keycloak.ts) can be started twice at once, as two suites
// or two checkouts on one machine do: each start keeps its database in a directory of its own
// (it used to delete and share the installation's data/h2, so the second start broke the first).
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "@jest/globals";
import { KeycloakAdmin, startKeycloak, type Keycloak } from "../support/keycloak.js";

const started: Keycloak[] = [];
afterAll(async () => {
  for (const k of started) await k.stop();
}, 60_000);

describe("startKeycloak", () => {
  it("runs two Keycloaks at once, each on its own database, and removes each one's data when it stops", async () => {
    if (process.env.VERDICT_KEYCLOAK_URL) return; // a given Keycloak is not ours to start
    // Both settle before anything is asserted, so afterAll stops whichever did start.
    const results = await Promise.allSettled([startKeycloak(), startKeycloak()]);
    for (const r of results) if (r.status === "fulfilled") started.push(r.value);
    for (const r of results) if (r.status === "rejected") throw r.reason;
    const [a, b] = started;
    expect(a!.dataDir).not.toBe(b!.dataDir);
    const adminA = new KeycloakAdmin(a!.url);
    const adminB = new KeycloakAdmin(b!.url);
    await Promise.all([adminA.login(), adminB.login()]);
    const realm = `only-a-${Date.now().toString(36)}`;
    await adminA.createRealm(realm);
    // Both keep serving, and what A stores is A's alone.
    expect((await fetch(`${a!.url}/realms/${realm}`)).status).toBe(200);
    expect((await fetch(`${b!.url}/realms/${realm}`)).status).toBe(404);
    expect((await fetch(`${b!.url}/realms/master`)).status).toBe(200);

    await a!.stop();
    expect(existsSync(a!.dataDir)).toBe(false);
    // B is untouched by A's stop.
    expect((await fetch(`${b!.url}/realms/master`)).status).toBe(200);
    await b!.stop();
    expect(existsSync(b!.dataDir)).toBe(false);
  }, 900_000);
});
