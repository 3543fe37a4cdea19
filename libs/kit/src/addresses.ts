// Which addresses an outbound request (a webhook; an IdP's metadata, discovery document or keys)
// may never reach: loopback, private, link-local, carrier-grade NAT, cloud metadata and other
// special-purpose ranges (IANA special-purpose registries), in IPv4 and IPv6, including IPv4
// addresses written inside IPv6 (mapped, compatible, NAT64, 6to4). Pure: egress.ts connects.
import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
// Azure's wire server and metadata relay: a public address that only the VM itself can reach.
blocked.addAddress("168.63.129.16", "ipv4");
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["fd00:ec2::254", 128], // AWS metadata over IPv6 (inside fc00::/7, named for clarity)
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible),
  // 64:ff9b::a.b.c.d (NAT64) in dotted form
  const dotted = /^(?:::ffff:|::ffff:0:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandIpv6(lower);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!); // mapped
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4(groups[6]!, groups[7]!); // translated (SIIT, ::ffff:0:a.b.c.d)
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7]! > 1)) return v4(groups[6]!, groups[7]!); // compatible
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!); // NAT64
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!); // 6to4
  return undefined;
}

function expandIpv6(address: string): number[] | undefined {
  let text = address.split("%")[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = v4[1]!.split(".").map(Number);
    text =
      text.slice(0, -v4[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const missing = 8 - h.length - t.length;
  if (text.includes("::") ? missing < 1 : missing !== 0) return undefined;
  const groups = [...h, ...Array(text.includes("::") ? missing : 0).fill("0"), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

export type AddressClass = "public" | "blocked";

/** Whether Verdict may connect to this IP address (anything that is no IP address: blocked). */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4") ? "blocked" : "public";
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined && classifyAddress(inner) === "blocked") return "blocked";
    return blocked.check(address.split("%")[0]!, "ipv6") ? "blocked" : "public";
  }
  return "blocked";
}

/** The host of a URL as an IP address, when it is one (`[::1]` -> `::1`). */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}
