// The create request's protobuf encoding (verdict.evaluation.v1.CreateEvaluationRequest), written
// once into a buffer of its exact size. The generated encoder grows its buffer by doubling (a
// 31 MiB request copies some 64 MiB while it grows) and copies the result again at the end; for
// the one message that carries every file's content this writes each byte once, from the parsed
// JSON's strings: large bodies on a body worker thread (the thread that answers every
// organization then hands gRPC the bytes as they are), small ones on the gateway's thread.
// Byte for byte the generated encoder's output (evaluationWire.test.ts compares them): fields in
// number order, proto3 defaults (empty strings and bytes) left out, every file and policy written.
const encoder = new TextEncoder();

/** A create request as the gateway builds it; a content may still be text (encoded as UTF-8). */
export interface CreateEvaluationWire {
  organization_id: string;
  repository: string;
  ref: string;
  base_ref: string;
  files: { path: string; content: string | Uint8Array; status: string }[];
  policies: string[];
  bypass_reason: string;
}

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
const utf8Size = (s: string): number => Buffer.byteLength(s, "utf8");
const contentSize = (c: string | Uint8Array): number => (typeof c === "string" ? utf8Size(c) : c.byteLength);
/** A length-delimited field of `len` bytes (tag of one byte: field numbers below 16; more: its varint). */
const fieldSize = (len: number, field = 1): number =>
  (field < 16 ? 1 : varintSize((field << 3) | 2)) + varintSize(len) + len;
const optionalField = (len: number, field = 1): number => (len ? fieldSize(len, field) : 0);

class Writer {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  varint(n: number): void {
    while (n >= 0x80) {
      this.bytes[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.bytes[this.at++] = n;
  }
  /** A length-delimited field whose value's size is known: tag, length, then the value. */
  head(field: number, len: number): void {
    this.varint((field << 3) | 2);
    this.varint(len);
  }
  text(field: number, value: string, len: number, always = false): void {
    if (!len && !always) return;
    this.head(field, len);
    const { written } = encoder.encodeInto(value, this.bytes.subarray(this.at, this.at + len));
    if (written !== len) throw new Error(`encoded ${written} bytes of a ${len}-byte string`);
    this.at += len;
  }
  content(field: number, value: string | Uint8Array, len: number): void {
    if (!len) return;
    if (typeof value === "string") return this.text(field, value, len);
    this.head(field, len);
    this.bytes.set(value, this.at);
    this.at += len;
  }
}

/**
 * The request's encoding, in a buffer of its own (it can move to another thread), and the bytes
 * of content it carries. Lone surrogates in strings become U+FFFD, as the generated encoder's
 * TextEncoder makes them.
 */
export function encodeCreateEvaluation(req: CreateEvaluationWire): { bytes: Uint8Array; contentBytes: number } {
  const sizes = {
    organization: utf8Size(req.organization_id),
    repository: utf8Size(req.repository),
    ref: utf8Size(req.ref),
    baseRef: utf8Size(req.base_ref),
    bypassReason: utf8Size(req.bypass_reason),
  };
  const files = req.files.map((f) => {
    const path = utf8Size(f.path);
    const content = contentSize(f.content);
    const status = utf8Size(f.status);
    return { path, content, status, message: optionalField(path) + optionalField(content) + optionalField(status) };
  });
  const policies = req.policies.map(utf8Size);
  let total =
    optionalField(sizes.organization) +
    optionalField(sizes.repository) +
    optionalField(sizes.ref) +
    optionalField(sizes.baseRef);
  let contentBytes = 0;
  for (const f of files) {
    total += fieldSize(f.message);
    contentBytes += f.content;
  }
  for (const p of policies) total += fieldSize(p);
  total += optionalField(sizes.bypassReason, 70);

  const w = new Writer(new Uint8Array(new ArrayBuffer(total)));
  w.text(1, req.organization_id, sizes.organization);
  w.text(2, req.repository, sizes.repository);
  w.text(3, req.ref, sizes.ref);
  w.text(4, req.base_ref, sizes.baseRef);
  for (const [i, f] of req.files.entries()) {
    const size = files[i]!;
    w.head(5, size.message);
    w.text(1, f.path, size.path);
    w.content(2, f.content, size.content);
    w.text(3, f.status, size.status);
  }
  for (const [i, p] of req.policies.entries()) w.text(6, p, policies[i]!, true);
  w.text(70, req.bypass_reason, sizes.bypassReason);
  if (w.at !== total) throw new Error(`encoded ${w.at} bytes of a ${total}-byte request`);
  return { bytes: w.bytes, contentBytes };
}

/** The create request for an organization from a validated body (a content may be text or bytes). */
function toCreateEvaluation(
  organizationId: string,
  body: {
    repository: string;
    ref: string;
    base_ref?: string | undefined;
    files: { path: string; content: string | Uint8Array; status: string }[];
    policies?: string[] | undefined;
    bypass_reason?: string | undefined;
  },
): CreateEvaluationWire {
  return {
    organization_id: organizationId,
    repository: body.repository,
    ref: body.ref,
    base_ref: body.base_ref ?? "",
    files: body.files.map((f) => ({ path: f.path, content: f.content, status: f.status })),
    policies: body.policies ?? [],
    bypass_reason: body.bypass_reason ?? "",
  };
}

/**
 * An evaluation's create request for one organization, validated and encoded once from its body
 * (http/bodies.ts: on a body worker when the body is large). The route hands it to the evaluation
 * client, which sends the bytes as they are (clients.ts).
 */
export interface EncodedCreateEvaluation {
  organizationId: string;
  bytes: Uint8Array;
  files: number;
  /** The files' content, in bytes. */
  contentBytes: number;
}

/** The encoded create request of a validated body, for the caller's organization. */
export function encodeEvaluationBody(
  organizationId: string,
  body: Parameters<typeof toCreateEvaluation>[1],
): EncodedCreateEvaluation {
  const { bytes, contentBytes } = encodeCreateEvaluation(toCreateEvaluation(organizationId, body));
  return { organizationId, bytes, files: body.files.length, contentBytes };
}
