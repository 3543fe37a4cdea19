import { describe, expect, it } from "@jest/globals";
import { Egress, type Resolver } from "./egress.js";

/** Names this test controls: one public, one private, one that answers both, one that fails. */
const resolver: Resolver = {
  lookup: async (hostname) => {
    const answers: Record<string, string[]> = {
      "public.test": ["93.184.216.34"],
      "internal.test": ["10.20.0.5"],
      "rebind.test": ["93.184.216.34", "127.0.0.1"],
    };
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  },
};

describe("Egress.refuses", () => {
  it("refuses an IP literal or a name with any address that is not allowed, before any call", async () => {
    const egress = new Egress({ allowPrivate: false, resolver });
    expect(await egress.refuses("https://public.test/api/v1")).toBe(false);
    expect(await egress.refuses("https://93.184.216.34")).toBe(false);
    for (const url of [
      "https://internal.test",
      "https://rebind.test",
      "http://127.0.0.1:3000",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://169.254.169.254/latest",
    ])
      expect([url, await egress.refuses(url)]).toEqual([url, true]);
    // Not resolvable, or not a URL: not refused here (the call itself fails).
    expect(await egress.refuses("https://nowhere.test")).toBe(false);
    expect(await egress.refuses("not a url")).toBe(false);
  });

  it("lets the listed addresses and ranges through, or all with allowPrivate true", async () => {
    const listed = new Egress({ allowPrivate: ["10.20.0.0/16"], resolver });
    expect(await listed.refuses("https://internal.test")).toBe(false);
    expect(await listed.refuses("http://127.0.0.1")).toBe(true);
    const all = new Egress({ allowPrivate: true, resolver });
    expect(await all.refuses("https://rebind.test")).toBe(false);
  });
});
