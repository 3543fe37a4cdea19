// A deterministic synthetic corpus of source files for the benchmarks: TypeScript, JavaScript,
// Python, Go, Java, YAML and Dockerfiles, written line by line from templates (imports,
// declarations, calls, comments, string literals, URLs, numbers, hashes, a little non-ASCII text),
// with a few true positives sprinkled in (AWS access key ids, GitHub tokens, hard-coded passwords,
// eval calls). A seeded PRNG makes every run produce the same bytes, so runs are comparable.
import { Buffer } from "node:buffer";

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  chars(alphabet, n) {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
}

const NOUNS = [
  "user",
  "account",
  "order",
  "invoice",
  "payment",
  "session",
  "request",
  "response",
  "config",
  "cache",
  "client",
  "server",
  "handler",
  "item",
  "record",
  "event",
  "message",
  "queue",
  "worker",
  "job",
  "report",
  "policy",
  "repository",
  "file",
  "path",
  "buffer",
  "stream",
  "result",
  "error",
  "status",
  "customer",
  "product",
  "price",
  "cart",
  "address",
  "profile",
  "role",
  "permission",
  "tenant",
  "region",
  "metric",
  "span",
  "trace",
  "batch",
  "chunk",
  "page",
  "cursor",
  "filter",
  "schema",
  "table",
  "row",
  "column",
  "index",
  "node",
  "edge",
  "graph",
  "model",
  "view",
  "store",
  "state",
  "token",
  "key",
  "header",
  "body",
  "payload",
  "context",
  "deadline",
  "timeout",
  "retry",
  "limit",
];
const VERBS = [
  "get",
  "set",
  "load",
  "save",
  "create",
  "update",
  "delete",
  "find",
  "list",
  "parse",
  "build",
  "render",
  "handle",
  "process",
  "validate",
  "resolve",
  "fetch",
  "send",
  "compute",
  "merge",
  "apply",
  "check",
  "format",
  "encode",
  "decode",
  "open",
  "close",
  "flush",
  "start",
  "stop",
];
const ADJECTIVES = [
  "new",
  "old",
  "pending",
  "active",
  "default",
  "current",
  "next",
  "last",
  "raw",
  "cached",
  "total",
  "max",
  "min",
];
const TYPES_TS = [
  "string",
  "number",
  "boolean",
  "Date",
  "Buffer",
  "unknown",
  "Record<string, unknown>",
  "string[]",
  "Map<string, number>",
];
const DOMAINS = [
  "api.example.com",
  "cdn.acme.io",
  "auth.example.org",
  "docs.verdict.dev",
  "registry.npmjs.org",
  "github.com",
  "storage.googleapis.com",
  "hooks.example.net",
];
// Realistic non-ASCII: accented words, arrows and check marks, CJK, emoji.
const NON_ASCII = [
  "naïve",
  "café",
  "Größe",
  "données",
  "→",
  "✓",
  "日本語のコメント",
  "über",
  "señal",
  "🚀",
  "Ελληνικά",
  "привет",
];
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

// Words between the nouns of a sentence, and the last word of a class name.
const FILLERS = [...VERBS, ...ADJECTIVES, "the", "a", "of", "to", "when", "if", "is", "not"];
const CLASS_SUFFIXES = [...NOUNS, "Service", "Manager", "Factory", "Repository"];

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** Identifier and literal pieces shared by every language. */
class Words {
  constructor(rng) {
    this.rng = rng;
  }
  noun() {
    return this.rng.pick(NOUNS);
  }
  camel() {
    const r = this.rng;
    return r.chance(0.5) ? r.pick(VERBS) + cap(r.pick(NOUNS)) : r.pick(ADJECTIVES) + cap(r.pick(NOUNS));
  }
  snake() {
    const r = this.rng;
    return r.chance(0.5) ? `${r.pick(VERBS)}_${r.pick(NOUNS)}` : `${r.pick(ADJECTIVES)}_${r.pick(NOUNS)}`;
  }
  pascal() {
    return cap(this.rng.pick(NOUNS)) + cap(this.rng.pick(CLASS_SUFFIXES));
  }
  sentence(min = 3, max = 12) {
    const r = this.rng;
    const n = min + r.int(max - min + 1);
    const words = [];
    for (let i = 0; i < n; i++) words.push(r.chance(0.6) ? r.pick(NOUNS) : r.pick(FILLERS));
    if (r.chance(0.02)) words.splice(r.int(words.length), 0, r.pick(NON_ASCII));
    return cap(words.join(" "));
  }
  number() {
    const r = this.rng;
    switch (r.int(5)) {
      case 0:
        return String(r.int(10));
      case 1:
        return String(r.int(100_000));
      case 2:
        return (r.next() * 1000).toFixed(2);
      case 3:
        return `0x${r.chars(HEX, 2 + r.int(7))}`;
      default:
        return String(r.pick([1024, 4096, 60_000, 3600, 86_400, 255, 65_535]));
    }
  }
  url() {
    const r = this.rng;
    // Mostly TLS; a little cleartext to localhost and internal hosts, as real code has.
    const scheme = r.chance(0.05) ? "http" : "https";
    const host =
      scheme === "http" ? r.pick(["localhost:3000", "127.0.0.1:8080", "internal.acme.local"]) : r.pick(DOMAINS);
    return `${scheme}://${host}/${r.pick(["v1", "v2", "api", "static", "docs"])}/${this.noun()}s/${this.noun()}`;
  }
  /** Non-secret high-entropy values real code is full of: commit hashes, integrity strings. */
  hash() {
    const r = this.rng;
    return r.chance(0.5) ? r.chars(HEX, 40) : `sha512-${r.chars(B64, 86)}==`;
  }
  literal() {
    const r = this.rng;
    switch (r.int(6)) {
      case 0:
        return this.url();
      case 1:
        return this.hash();
      case 2:
        return `${this.noun()}.${this.noun()}`;
      default:
        return this.sentence(1, 6);
    }
  }
}

// ---------- true positives ----------

const fakeAwsKeyId = (r) => `AKIA${r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`;
const fakeGithubToken = (r) => `ghp_${r.chars(ALNUM, 36)}`;
const fakePassword = (r) => r.chars(ALNUM, 10) + r.pick(["!", "#", "%", "&"]) + r.chars(ALNUM, 4);

/** A line carrying a secret or an eval call, in the syntax of the language. */
function truePositive(lang, r) {
  const kind = r.pick(["aws", "github", "password", "eval"]);
  const value = kind === "aws" ? fakeAwsKeyId(r) : kind === "github" ? fakeGithubToken(r) : fakePassword(r);
  const name = { aws: "awsAccessKeyId", github: "githubToken", password: "dbPassword", eval: "" }[kind];
  switch (lang) {
    case "ts":
    case "js":
      return kind === "eval" ? "  const value = eval(expression);" : `  const ${name} = "${value}";`;
    case "py":
      return kind === "eval"
        ? "    result = eval(expression)"
        : `    ${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} = "${value}"`;
    case "go":
      return `\t${kind === "eval" ? "password" : name} := "${kind === "eval" ? fakePassword(r) : value}"`;
    case "java":
      return `    private static final String ${kind === "eval" ? "password" : name} = "${kind === "eval" ? fakePassword(r) : value}";`;
    case "yaml":
      return `  ${{ aws: "aws_access_key_id", github: "github_token", password: "password", eval: "password" }[kind]}: "${kind === "eval" ? fakePassword(r) : value}"`;
    default:
      return `ENV ${{ aws: "AWS_ACCESS_KEY_ID", github: "GITHUB_TOKEN", password: "DB_PASSWORD", eval: "DB_PASSWORD" }[kind]}=${kind === "eval" ? fakePassword(r) : value}`;
  }
}

// ---------- languages ----------
// Each writer returns the header lines of a file and a statement generator; files are a header
// followed by blocks of statements.

function tsWriter(w, r, typed) {
  const T = () => (typed ? `: ${r.pick(TYPES_TS)}` : "");
  return {
    header: () => {
      const lines = [];
      for (let i = 0, n = 2 + r.int(6); i < n; i++) {
        lines.push(
          r.chance(0.3)
            ? `import ${w.camel()} from "${r.pick(["node:fs", "node:path", "express", "zod", "pino", "@verdict/kit"])}";`
            : `import { ${w.pascal()}, ${w.camel()} } from "./${w.noun()}/${w.camel()}.js";`,
        );
      }
      return lines;
    },
    blockStart: () =>
      r.chance(0.5)
        ? [
            `/** ${w.sentence()}. */`,
            `export ${r.chance(0.4) ? "async " : ""}function ${w.camel()}(${w.noun()}${T()}, ${w.noun()}Id${typed ? ": string" : ""})${typed ? `: ${r.pick(TYPES_TS)}` : ""} {`,
          ]
        : [
            `export class ${w.pascal()} {`,
            `  private readonly ${w.camel()}${T()} = new Map();`,
            `  ${w.camel()}(${w.noun()}${T()}) {`,
          ],
    statement: () => {
      switch (r.int(12)) {
        case 0:
          return `  // ${w.sentence()}`;
        case 1:
          return `  const ${w.camel()} = await this.${w.camel()}(${w.noun()}, "${w.literal()}");`;
        case 2:
          return `  if (${w.camel()}.length > ${w.number()} && !${w.camel()}) return ${r.pick(["null", "undefined", "[]", "false"])};`;
        case 3:
          return `  logger.${r.pick(["info", "debug", "warn"])}({ ${w.noun()}Id, count: ${w.number()} }, "${w.sentence()}");`;
        case 4:
          return `  const ${w.camel()} = new URL("${w.url()}");`;
        case 5:
          return `  throw new Error(\`Failed to ${r.pick(VERBS)} ${w.noun()} \${${w.camel()}}: \${err.message}\`);`;
        case 6:
          return `  for (const ${w.noun()} of ${w.camel()}) ${w.camel()}.push(${w.noun()}.${w.camel()}());`;
        case 7:
          return `  return { ...${w.camel()}, ${w.noun()}: ${w.camel()}, ${w.noun()}: ${w.number()} };`;
        case 8:
          return `  ${w.camel()}.${w.noun()} = ${w.camel()}?.${w.noun()} ?? "${w.literal()}";`;
        case 9:
          return `  const ${w.camel()} = ${w.camel()}.map((x) => x.${w.noun()}).filter(Boolean);`;
        case 10:
          return "";
        default:
          return `  await ${w.camel()}.${r.pick(VERBS)}(${w.noun()}, { ${w.noun()}: ${w.number()}, ${w.noun()}: "${w.literal()}" });`;
      }
    },
    blockEnd: () => ["}", ""],
  };
}

function pyWriter(w, r) {
  return {
    header: () => {
      const lines = [`"""${w.sentence()}."""`, ""];
      for (let i = 0, n = 2 + r.int(5); i < n; i++)
        lines.push(
          r.chance(0.4)
            ? `import ${r.pick(["os", "json", "logging", "re", "typing", "datetime"])}`
            : `from ${w.noun()}.${w.snake()} import ${w.pascal()}`,
        );
      return lines;
    },
    blockStart: () =>
      r.chance(0.6)
        ? [`def ${w.snake()}(${w.noun()}, ${w.noun()}=None):`, `    """${w.sentence()}."""`]
        : [`class ${w.pascal()}(${w.pascal()}):`, `    def ${w.snake()}(self, ${w.noun()}):`],
    statement: () => {
      switch (r.int(11)) {
        case 0:
          return `    # ${w.sentence()}`;
        case 1:
          return `    ${w.snake()} = self.${w.snake()}(${w.noun()}, "${w.literal()}")`;
        case 2:
          return `    if ${w.snake()} is None or len(${w.noun()}) > ${w.number()}:`;
        case 3:
          return `        raise ValueError(f"invalid ${w.noun()}: {${w.noun()}!r}")`;
        case 4:
          return `    logger.${r.pick(["info", "debug", "warning"])}("${w.sentence()} %s", ${w.snake()})`;
        case 5:
          return `    url = "${w.url()}"`;
        case 6:
          return `    for ${w.noun()} in ${w.snake()}:`;
        case 7:
          return `        ${w.snake()}.append(${w.noun()}.${w.snake()}())`;
        case 8:
          return `    return {"${w.noun()}": ${w.snake()}, "${w.noun()}": ${w.number()}}`;
        case 9:
          return "";
        default:
          return `    ${w.snake()} = [x.${w.noun()} for x in ${w.snake()} if x.${w.noun()}]`;
      }
    },
    blockEnd: () => ["", ""],
  };
}

function goWriter(w, r) {
  return {
    header: () => {
      const lines = [`// Package ${w.noun()} ${w.sentence().toLowerCase()}.`, `package ${w.noun()}`, "", "import ("];
      for (let i = 0, n = 2 + r.int(5); i < n; i++)
        lines.push(`\t"${r.pick(["context", "fmt", "net/http", "encoding/json", "time", "errors", "strings"])}"`);
      lines.push(")", "");
      return lines;
    },
    blockStart: () => [
      `// ${cap(w.camel())} ${w.sentence().toLowerCase()}.`,
      `func (s *${w.pascal()}) ${cap(w.camel())}(ctx context.Context, ${w.noun()} *${w.pascal()}) (*${w.pascal()}, error) {`,
    ],
    statement: () => {
      switch (r.int(10)) {
        case 0:
          return `\t// ${w.sentence()}`;
        case 1:
          return `\t${w.camel()}, err := s.${w.noun()}.${cap(w.camel())}(ctx, ${w.noun()})`;
        case 2:
          return "\tif err != nil {";
        case 3:
          return `\t\treturn nil, fmt.Errorf("${r.pick(VERBS)} ${w.noun()}: %w", err)`;
        case 4:
          return "\t}";
        case 5:
          return `\treq, _ := http.NewRequestWithContext(ctx, http.MethodGet, "${w.url()}", nil)`;
        case 6:
          return `\ts.log.Info("${w.sentence()}", "${w.noun()}", ${w.camel()}, "n", ${w.number()})`;
        case 7:
          return `\tfor _, ${w.noun()} := range ${w.camel()} {`;
        case 8:
          return "";
        default:
          return `\t${w.camel()} := &${w.pascal()}{${cap(w.noun())}: ${w.camel()}, ${cap(w.noun())}: ${w.number()}}`;
      }
    },
    blockEnd: () => ["\treturn nil, nil", "}", ""],
  };
}

function javaWriter(w, r) {
  return {
    header: () => {
      const lines = [`package com.acme.${w.noun()};`, ""];
      for (let i = 0, n = 2 + r.int(6); i < n; i++)
        lines.push(`import ${r.pick(["java.util", "java.time", "com.acme." + w.noun(), "org.slf4j"])}.${w.pascal()};`);
      lines.push("", `/** ${w.sentence()}. */`, `public class ${w.pascal()} {`);
      return lines;
    },
    blockStart: () => [
      `    /** ${w.sentence()}. */`,
      `    public ${w.pascal()} ${w.camel()}(final ${w.pascal()} ${w.noun()}, final String ${w.noun()}Id) {`,
    ],
    statement: () => {
      switch (r.int(9)) {
        case 0:
          return `        // ${w.sentence()}`;
        case 1:
          return `        final var ${w.camel()} = this.${w.noun()}Repository.${w.camel()}(${w.noun()}Id);`;
        case 2:
          return `        if (${w.camel()} == null || ${w.camel()}.size() > ${w.number()}) {`;
        case 3:
          return `            throw new IllegalStateException("${w.sentence()}: " + ${w.noun()}Id);`;
        case 4:
          return `        LOG.info("${w.sentence()} {}", ${w.camel()});`;
        case 5:
          return `        final URI ${w.camel()} = URI.create("${w.url()}");`;
        case 6:
          return "        }";
        case 7:
          return "";
        default:
          return `        ${w.camel()}.put("${w.noun()}", ${w.camel()}.get${w.pascal()}());`;
      }
    },
    blockEnd: () => ["        return null;", "    }", ""],
  };
}

function yamlWriter(w, r) {
  return {
    header: () =>
      r.chance(0.5)
        ? [
            "apiVersion: apps/v1",
            "kind: Deployment",
            "metadata:",
            `  name: ${w.noun()}-${w.noun()}`,
            "  labels:",
            `    app: ${w.noun()}`,
          ]
        : [`name: ${w.sentence(2, 4)}`, "on:", "  push:", "    branches: [main]", "jobs:"],
    blockStart: () => [`${w.noun()}-${w.noun()}:`],
    statement: () => {
      switch (r.int(9)) {
        case 0:
          return `  # ${w.sentence()}`;
        case 1:
          return `  - name: ${w.sentence(2, 5)}`;
        case 2:
          return `    run: ${r.pick(["npm ci", "pnpm test", "go test ./...", "make build", "docker build -t app ."])}`;
        case 3:
          return `    image: ghcr.io/acme/${w.noun()}:${r.int(5)}.${r.int(20)}.${r.int(10)}`;
        case 4:
          return `    replicas: ${1 + r.int(5)}`;
        case 5:
          return `      - name: ${w.snake().toUpperCase()}`;
        case 6:
          return `        value: "${w.literal()}"`;
        case 7:
          return `    timeout-minutes: ${5 + r.int(55)}`;
        default:
          return `  ${w.snake()}: ${r.pick([w.number(), "true", "false", `"${w.literal()}"`])}`;
      }
    },
    blockEnd: () => [""],
  };
}

function dockerWriter(w, r) {
  return {
    header: () => [
      `FROM ${r.pick(["node:20-alpine", "python:3.12-slim", "golang:1.22", "eclipse-temurin:21-jre"])} AS build`,
      "WORKDIR /app",
    ],
    blockStart: () => [`# ${w.sentence()}`],
    statement: () => {
      switch (r.int(7)) {
        case 0:
          return `COPY ${w.noun()}/ ./${w.noun()}/`;
        case 1:
          return `RUN ${r.pick(["npm ci --omit=dev", "pip install --no-cache-dir -r requirements.txt", "go build -o /bin/app ./cmd/app", "apk add --no-cache ca-certificates"])}`;
        case 2:
          return `ENV ${w.snake().toUpperCase()}=${w.number()}`;
        case 3:
          return `EXPOSE ${r.pick([80, 443, 3000, 8080, 9090])}`;
        case 4:
          return `LABEL org.opencontainers.image.source="${w.url()}"`;
        case 5:
          return `ARG ${w.snake().toUpperCase()}`;
        default:
          return "";
      }
    },
    blockEnd: () => [`CMD ["${r.pick(["node", "python", "/bin/app", "java"])}", "${w.noun()}"]`, ""],
  };
}

// Language, weight, file extension or name, and the size range of its files in bytes.
const LANGUAGES = [
  { lang: "ts", weight: 25, ext: ".ts", min: 1_000, max: 48_000 },
  { lang: "js", weight: 18, ext: ".js", min: 1_000, max: 48_000 },
  { lang: "py", weight: 18, ext: ".py", min: 1_000, max: 48_000 },
  { lang: "go", weight: 14, ext: ".go", min: 1_000, max: 48_000 },
  { lang: "java", weight: 13, ext: ".java", min: 1_000, max: 48_000 },
  { lang: "yaml", weight: 9, ext: ".yaml", min: 400, max: 8_000 },
  { lang: "docker", weight: 3, ext: "", min: 200, max: 2_000 },
];
const TOTAL_WEIGHT = LANGUAGES.reduce((s, l) => s + l.weight, 0);
// About one line in 3,000 is a true positive: a few hundred in 50 MB.
const TRUE_POSITIVE_RATE = 1 / 3000;

function writerFor(lang, w, r) {
  switch (lang) {
    case "ts":
      return tsWriter(w, r, true);
    case "js":
      return tsWriter(w, r, false);
    case "py":
      return pyWriter(w, r);
    case "go":
      return goWriter(w, r);
    case "java":
      return javaWriter(w, r);
    case "yaml":
      return yamlWriter(w, r);
    default:
      return dockerWriter(w, r);
  }
}

/** A file's text: a header, then blocks of statements, until it reaches about `size` characters. */
function fileText(lang, size, r) {
  const w = new Words(r);
  const writer = writerFor(lang, w, r);
  const lines = writer.header();
  let length = lines.reduce((s, l) => s + l.length + 1, 0);
  const add = (l) => {
    lines.push(l);
    length += l.length + 1;
  };
  while (length < size) {
    for (const l of writer.blockStart()) add(l);
    for (let i = 0, n = 3 + r.int(20); i < n && length < size; i++)
      add(r.chance(TRUE_POSITIVE_RATE) ? truePositive(lang, r) : writer.statement());
    for (const l of writer.blockEnd()) add(l);
  }
  return lines.join("\n") + "\n";
}

function pickLanguage(r) {
  let x = r.int(TOTAL_WEIGHT);
  for (const l of LANGUAGES) if ((x -= l.weight) < 0) return l;
  return LANGUAGES[0];
}

function pathFor(l, w, r, used) {
  const base = {
    ts: () => `services/${w.noun()}/src/${w.noun()}/${w.camel()}.ts`,
    js: () => `web/src/${w.noun()}s/${w.camel()}.js`,
    py: () => `app/${w.noun()}/${w.snake()}.py`,
    go: () => `internal/${w.noun()}/${w.snake()}.go`,
    java: () => `src/main/java/com/acme/${w.noun()}/${w.pascal()}.java`,
    yaml: () =>
      r.chance(0.3) ? `.github/workflows/${w.noun()}-${w.noun()}.yml` : `deploy/k8s/${w.noun()}-${w.noun()}.yaml`,
    docker: () => `services/${w.noun()}-${w.noun()}/Dockerfile`,
  }[l.lang]();
  let path = base;
  // Names repeat across a large corpus: number the directory of a repeated path.
  for (let i = 2; used.has(path); i++) path = base.replace(/\/([^/]+)$/, `/${i}/$1`);
  used.add(path);
  return path;
}

/**
 * Files of mixed languages, sizes spread evenly on a log scale within each language's range,
 * until the total reaches `totalBytes`. Returns `{ path, content: Buffer }` objects.
 */
export function generateCorpus({ totalBytes, seed = 1 }) {
  const r = new Rng(seed);
  const w = new Words(r);
  const used = new Set();
  const files = [];
  let total = 0;
  while (total < totalBytes) {
    const l = pickLanguage(r);
    const size = Math.round(l.min * Math.pow(l.max / l.min, r.next()));
    const content = Buffer.from(fileText(l.lang, size, r), "utf8");
    files.push({ path: pathFor(l, w, r, used), content });
    total += content.length;
  }
  return files;
}

/** `count` files of at most `size` bytes each (cut at a line end), for request payloads. */
export function generateFiles({ count, size, seed = 1 }) {
  const r = new Rng(seed);
  const w = new Words(r);
  const used = new Set();
  const files = [];
  while (files.length < count) {
    const l = pickLanguage(r);
    let content = Buffer.from(fileText(l.lang, size * 2, r), "utf8");
    content = content.subarray(0, content.lastIndexOf(10, size - 1) + 1);
    files.push({ path: pathFor(l, w, r, used), content });
  }
  return files;
}
