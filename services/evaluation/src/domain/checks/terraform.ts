// Checks of Terraform (HCL) files: they read the `{ … }` block around the match by counting braces,
// at most MAX_BLOCK bytes either way, so a check costs a bounded part of the file.
import type { CheckInput } from "./input.js";

const MAX_BLOCK = 64 * 1024;
const OPEN = 123; // {
const CLOSE = 125; // }

interface Block {
  /** The line that opens the block (`resource "aws_db_instance" "db" {`, `ingress {`). */
  header: string;
  /** The block's text between its braces, nested blocks included. */
  body: string;
}

function lineAround(content: Buffer, offset: number): string {
  const start = offset === 0 ? 0 : content.lastIndexOf(10, offset - 1) + 1;
  const end = content.indexOf(10, offset);
  return content.toString("utf8", start, end === -1 ? content.length : end);
}

/** The block that opens at `open` (the offset of its `{`), or undefined when it does not close within the bound. */
function blockFrom(content: Buffer, open: number): Block | undefined {
  let depth = 0;
  for (let i = open; i < content.length && i - open < MAX_BLOCK; i++) {
    if (content[i] === OPEN) depth++;
    else if (content[i] === CLOSE && --depth === 0)
      return { header: lineAround(content, open), body: content.toString("utf8", open + 1, i) };
  }
  return undefined;
}

/** The innermost block that encloses `offset`. */
function enclosingBlock(content: Buffer, offset: number): Block | undefined {
  let depth = 0;
  for (let i = offset - 1; i >= 0 && offset - i < MAX_BLOCK; i--) {
    if (content[i] === CLOSE) depth++;
    else if (content[i] === OPEN && depth-- === 0) return blockFrom(content, i);
  }
  return undefined;
}

/** Port ranges written as `"22"`, `"1000-2000"`, `"*"` or `"21, 23,10-20"` (a list's items, or one string). */
function portRanges(text: string): [number, number][] {
  return [...text.matchAll(/["']([^"'\n]*)["']/g)].flatMap((m) =>
    m[1]!.split(",").flatMap((item): [number, number][] => {
      const range = /^\s*(\*|\d+)(?:\s*-\s*(\d+))?\s*$/.exec(item);
      if (!range) return [];
      return range[1] === "*" ? [[0, 65535]] : [[Number(range[1]), Number(range[2] ?? range[1])]];
    }),
  );
}

/**
 * An address range open to the internet matters when the block it is in admits traffic (it is no
 * `egress` block or rule, no Outbound/EGRESS direction, no Azure Deny) over TCP on `port`: AWS
 * `from_port`..`to_port` or protocol "-1", GCP `ports` (or protocol "all" without ports), Azure
 * `destination_port_range(s)`.
 */
function admitsTcpPort(input: CheckInput, port: number): boolean {
  const block = enclosingBlock(input.content, input.start);
  if (!block) return false;
  const { header, body } = block;
  if (/^\s*egress\b/.test(header) || /\btype\s*=\s*"egress"/.test(body)) return false;
  if (/\bdirection\s*=\s*"(?:Outbound|EGRESS)"/i.test(body) || /\baccess\s*=\s*"Deny"/i.test(body)) return false;
  // SSH and RDP are TCP: rules for UDP or ICMP alone open neither.
  const protocols = [...body.matchAll(/\b(?:ip_)?protocol\s*=\s*"([^"\n]*)"/gi)].map((m) => m[1]!.toLowerCase());
  if (protocols.includes("-1")) return true;
  if (protocols.length && !protocols.some((p) => ["tcp", "6", "*", "all"].includes(p))) return false;
  const ranges: [number, number][] = [];
  const from = /\bfrom_port\s*=\s*(-?\d+)/.exec(body);
  const to = /\bto_port\s*=\s*(-?\d+)/.exec(body);
  if (from && to) ranges.push([Number(from[1]), Number(to[1])]);
  const listed = [...body.matchAll(/\b(?:destination_port_ranges?|port_range|ports)\s*=\s*(\[[^\]]*\]|"[^"\n]*")/g)];
  for (const m of listed) ranges.push(...portRanges(m[1]!));
  if (!ranges.length && protocols.includes("all")) return true;
  return ranges.some(([low, high]) => low <= port && port <= high);
}

/** Terraform: the block admits SSH (TCP 22). */
export const tfIngressSsh = (input: CheckInput): boolean => admitsTcpPort(input, 22);

/** Terraform: the block admits RDP (TCP 3389). */
export const tfIngressRdp = (input: CheckInput): boolean => admitsTcpPort(input, 3389);

/** An IAM statement's `Action: "*"` grants everything only with `Resource: "*"` beside it, in an Allow. */
export function tfStatementAllResources(input: CheckInput): boolean {
  const block = enclosingBlock(input.content, input.start);
  if (!block) return false;
  if (/["']?effect["']?\s*[=:]\s*["']Deny["']/i.test(block.body)) return false;
  return /^\s*["']?resources?["']?\s*[=:]\s*\[?\s*["']\*["']\s*\]?\s*,?\s*$/im.test(block.body);
}

// The attribute that switches encryption at rest on, per resource type whose provider default is off.
const ENCRYPTION_ATTRIBUTE: Readonly<Record<string, string>> = {
  aws_db_instance: "storage_encrypted",
  aws_rds_cluster: "storage_encrypted",
  aws_ebs_volume: "encrypted",
  aws_efs_file_system: "encrypted",
  aws_elasticache_replication_group: "at_rest_encryption_enabled",
};
// Copies inherit the source's encryption (a read replica, a volume from a snapshot, a restored
// cluster), and a customer-managed key (kms_key_id) is only given to encrypt with.
const INHERITS =
  /^\s*(?:replicate_source_db|snapshot_identifier|snapshot_id|source_db_cluster_snapshot_identifier|kms_key_id)\s*=/m;

/**
 * An explicit `encrypted = false` stands; a resource header stands when its block does not set
 * the encryption attribute at all (the provider's default is unencrypted), names no KMS key and
 * is no copy of an encrypted source.
 */
export function tfNotEncrypted(input: CheckInput): boolean {
  const type = /resource\s+"([a-z0-9_]+)"/.exec(input.match)?.[1];
  if (!type) return true;
  const attribute = ENCRYPTION_ATTRIBUTE[type];
  const open = input.content.indexOf(OPEN, input.end);
  if (!attribute || open === -1) return false;
  const block = blockFrom(input.content, open);
  if (!block) return false;
  return !new RegExp(String.raw`^\s*${attribute}\s*=`, "m").test(block.body) && !INHERITS.test(block.body);
}
