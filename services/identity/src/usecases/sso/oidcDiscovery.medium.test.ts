// OIDC discovery documents cached per issuer: a real IdP-shaped HTTP server on 127.0.0.1
// counts the fetches of its /.well-known/openid-configuration.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Egress } from "@verdict/kit";
import { OidcDiscoveryCache, type OidcClientSettings } from "./oidcDiscovery.js";

// The IdP server of these tests listens on 127.0.0.1.
const egress = new Egress({ allowPrivate: true });

let server: Server;
let issuer: string;
let fetches = 0;
let tokenEndpoint = "/token";

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== "/.well-known/openid-configuration") {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}${tokenEndpoint}`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  fetches = 0;
  tokenEndpoint = "/token";
});

const t0 = new Date("2026-06-01T12:00:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const settings = (over: Partial<OidcClientSettings> = {}): OidcClientSettings => ({
  issuer,
  clientId: "verdict",
  clientSecret: "s3cret",
  connectionUpdatedAt: new Date(t0.getTime() - 60_000).toISOString(),
  ...over,
});

describe("OidcDiscoveryCache", () => {
  it("fetches an issuer's document once per TTL, for every client of that issuer", async () => {
    const cache = new OidcDiscoveryCache(3_600_000, egress);
    const first = await cache.configuration(settings(), t0);
    expect(first.serverMetadata().token_endpoint).toBe(`${issuer}/token`);
    expect(first.clientMetadata().client_id).toBe("verdict");
    const second = await cache.configuration(settings({ clientId: "other" }), at(60_000));
    expect(second.clientMetadata().client_id).toBe("other");
    expect(fetches).toBe(1);

    tokenEndpoint = "/token2";
    const later = await cache.configuration(settings(), at(3_600_000));
    expect(fetches).toBe(2);
    expect(later.serverMetadata().token_endpoint).toBe(`${issuer}/token2`);
  });

  it("fetches again when the connection was saved after the document was", async () => {
    const cache = new OidcDiscoveryCache(3_600_000, egress);
    await cache.configuration(settings(), t0);
    await cache.configuration(settings(), at(1_000));
    expect(fetches).toBe(1);
    // Another replica saved the connection: its updated_at is newer than the cached document.
    tokenEndpoint = "/token-after-save";
    const saved = settings({ connectionUpdatedAt: at(2_000).toISOString() });
    expect((await cache.configuration(saved, at(3_000))).serverMetadata().token_endpoint).toBe(
      `${issuer}/token-after-save`,
    );
    expect(fetches).toBe(2);
    await cache.configuration(saved, at(4_000));
    expect(fetches).toBe(2);
  });

  it("drops an issuer's document when told, and caches nothing with a TTL of 0", async () => {
    const cache = new OidcDiscoveryCache(3_600_000, egress);
    await cache.configuration(settings(), t0);
    cache.invalidate(issuer);
    await cache.configuration(settings(), at(1_000));
    expect(fetches).toBe(2);

    const uncached = new OidcDiscoveryCache(0, egress);
    await uncached.configuration(settings(), t0);
    await uncached.configuration(settings(), t0);
    expect(fetches).toBe(4);
  });

  it("caches no failure: an issuer that does not answer is asked again", async () => {
    const cache = new OidcDiscoveryCache(3_600_000, egress);
    const missing = `${issuer}/nowhere`;
    await expect(cache.configuration(settings({ issuer: missing }), t0)).rejects.toThrow();
    await expect(cache.configuration(settings({ issuer: missing }), t0)).rejects.toThrow();
    expect(fetches).toBe(0);
  });
});
