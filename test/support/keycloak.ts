// Keycloak (keycloak-quarkus-dist from Maven Central, scripts/install-keycloak.sh) as a real OIDC
// provider and SAML identity provider for the SSO suite: started once for the suite (or reused
// from VERDICT_KEYCLOAK_URL), configured through its admin REST API.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./paths.js";

export interface Keycloak {
  url: string;
  /** This start's own data directory ("" for a Keycloak given by VERDICT_KEYCLOAK_URL). */
  dataDir: string;
  stop(): Promise<void>;
  output(): string;
}

// VERDICT_KEYCLOAK_URL (a running Keycloak to reuse) comes with VERDICT_KEYCLOAK_ADMIN=user:password.
const [adminUser, adminPassword] = (process.env.VERDICT_KEYCLOAK_ADMIN ?? "verdict-admin:verdict-admin-password").split(
  ":",
);
const ADMIN = { username: adminUser!, password: adminPassword! };

async function healthy(url: string, managementUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${managementUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return false;
    return (await fetch(`${url}/realms/master`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Starts Keycloak on 127.0.0.1 (dev mode), or answers the one configured. Each start has a data
 * directory of its own (its H2 database and transaction log), deleted when it stops: the
 * installation under ~/.cache/verdict-keycloak is shared by every suite and every checkout on
 * the machine, and two starts must not share (or delete) each other's database. The installed
 * server's build stays cached, so a start is as fast as before.
 */
export async function startKeycloak(): Promise<Keycloak> {
  if (process.env.VERDICT_KEYCLOAK_URL)
    return { url: process.env.VERDICT_KEYCLOAK_URL, dataDir: "", stop: async () => {}, output: () => "" };
  const home = execFileSync("bash", [join(ROOT, "scripts/install-keycloak.sh")], { encoding: "utf8" }).trim();
  // Its ports are below Linux's ephemeral range (32768-60999), where no outgoing connection of
  // another suite takes them; a port another server holds anyway means another pair.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(home, 20_000 + Math.floor(Math.random() * 4_000) * 2);
    } catch (err) {
      if (attempt >= 3 || !/Port already bound/.test(String(err))) throw err;
    }
  }
}

async function startOn(home: string, port: number): Promise<Keycloak> {
  // A fresh dev database each start, in a directory of its own: the bootstrap admin always
  // exists and no realm lingers. The database kind (dev-file) is a build option, changing it
  // would rebuild the server; its URL and the transaction log's directory are runtime options.
  const data = mkdtempSync(join(tmpdir(), "verdict-keycloak-"));
  const url = `http://127.0.0.1:${port}`;
  const managementUrl = `http://127.0.0.1:${port + 1}`;
  let out = "";
  const proc: ChildProcess = spawn(
    join(home, "bin/kc.sh"),
    [
      "start-dev",
      "--http-host=127.0.0.1",
      `--http-port=${port}`,
      `--http-management-port=${port + 1}`,
      "--health-enabled=true",
      "--cache=local",
      `--db-url=jdbc:h2:file:${join(data, "h2/keycloakdb")};NON_KEYWORDS=VALUE`,
    ],
    {
      env: {
        ...process.env,
        JAVA_OPTS_APPEND: [
          process.env.JAVA_OPTS_APPEND ?? "",
          `-Dquarkus.transaction-manager.object-store.directory=${join(data, "transaction-logs")}`,
        ]
          .join(" ")
          .trim(),
        KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN.username,
        KC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      process.kill(-proc.pid!, "SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      if (proc.exitCode === null && proc.signalCode === null) process.kill(-proc.pid!, "SIGKILL");
      proc.stdout!.destroy();
      proc.stderr!.destroy();
    }
    rmSync(data, { recursive: true, force: true });
  };
  // The first start builds the server (~60-100 s on a busy machine); later ones take ~30 s.
  const deadline = Date.now() + 420_000;
  while (!(await healthy(url, managementUrl))) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Keycloak did not start:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { url, dataDir: data, stop, output: () => out };
}

/** The admin REST API of one Keycloak. */
export class KeycloakAdmin {
  private token = "";
  constructor(readonly url: string) {}

  async login(): Promise<void> {
    const res = await fetch(`${this.url}/realms/master/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", client_id: "admin-cli", ...ADMIN }),
    });
    if (!res.ok) throw new Error(`Keycloak admin login: ${res.status} ${await res.text()}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
  }

  async call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.url}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`Keycloak ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  createRealm(realm: string) {
    // The access token of the admin lasts 60 s by default: each setup step logs in again if needed.
    return this.call("POST", "/realms", { realm, enabled: true, sslRequired: "none" });
  }

  createUser(
    realm: string,
    user: {
      username: string;
      email: string;
      emailVerified: boolean;
      firstName: string;
      lastName: string;
      password: string;
    },
  ) {
    return this.call("POST", `/realms/${realm}/users`, {
      username: user.username,
      email: user.email,
      emailVerified: user.emailVerified,
      firstName: user.firstName,
      lastName: user.lastName,
      enabled: true,
      requiredActions: [],
      credentials: [{ type: "password", value: user.password, temporary: false }],
    });
  }

  createOidcClient(realm: string, clientId: string, secret: string, redirectUri: string) {
    return this.call("POST", `/realms/${realm}/clients`, {
      clientId,
      secret,
      protocol: "openid-connect",
      publicClient: false,
      standardFlowEnabled: true,
      directAccessGrantsEnabled: false,
      redirectUris: [redirectUri],
      attributes: { "pkce.code.challenge.method": "S256" },
    });
  }

  createSamlClient(realm: string, entityId: string, acsUrl: string) {
    return this.call("POST", `/realms/${realm}/clients`, {
      clientId: entityId,
      protocol: "saml",
      enabled: true,
      redirectUris: [acsUrl],
      attributes: {
        "saml.assertion.signature": "true",
        "saml.server.signature": "true",
        "saml.client.signature": "false",
        "saml.authnstatement": "true",
        saml_name_id_format: "email",
        "saml.force.name.id.format": "true",
        saml_assertion_consumer_url_post: acsUrl,
      },
      protocolMappers: [
        {
          name: "email",
          protocol: "saml",
          protocolMapper: "saml-user-property-mapper",
          config: { "user.attribute": "email", "attribute.name": "email", "attribute.nameformat": "Basic" },
        },
        {
          name: "firstName",
          protocol: "saml",
          protocolMapper: "saml-user-property-mapper",
          config: { "user.attribute": "firstName", "attribute.name": "firstName", "attribute.nameformat": "Basic" },
        },
        {
          name: "lastName",
          protocol: "saml",
          protocolMapper: "saml-user-property-mapper",
          config: { "user.attribute": "lastName", "attribute.name": "lastName", "attribute.nameformat": "Basic" },
        },
      ],
    });
  }

  /**
   * A key rotation: a new RSA signing key above the realm's own, which signs from now on (the
   * old one stays published beside it in the realm's metadata).
   */
  async rotateRealmKey(realm: string): Promise<void> {
    const { id } = await this.call("GET", `/realms/${realm}`);
    await this.call("POST", `/realms/${realm}/components`, {
      name: "rotated-rsa",
      providerId: "rsa-generated",
      providerType: "org.keycloak.keys.KeyProvider",
      parentId: id,
      config: { priority: ["1000"], active: ["true"], enabled: ["true"], algorithm: ["RS256"] },
    });
  }

  /** The realm's SAML IdP metadata. */
  async samlDescriptor(realm: string): Promise<string> {
    const res = await fetch(`${this.url}/realms/${realm}/protocol/saml/descriptor`);
    return res.text();
  }
}
