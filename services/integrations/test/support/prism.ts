// Prism (@stoplight/prism-cli) serving GitHub's own REST description (@octokit/openapi): it checks
// every request against the operation's parameters and request body schema and answers a
// request that breaks them with 422 and the violations, else with the description's example.
// In front of it, a real HTTP server that records each exchange (so a test asserts Prism
// accepted every request Verdict sent) and can answer a request itself first (faults: 429 with
// Retry-After, 5xx), then pass the next ones through.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The REST operations Verdict calls on GitHub (a request to any other one is refused). */
export const GITHUB_OPERATIONS: Record<string, string[]> = {
  "/app/installations/{installation_id}/access_tokens": ["post"],
  "/app-manifests/{code}/conversions": ["post"],
  "/repos/{owner}/{repo}/installation": ["get"],
  "/repos/{owner}/{repo}": ["get"],
  "/repos/{owner}/{repo}/pulls/{pull_number}/files": ["get"],
  "/repos/{owner}/{repo}/compare/{basehead}": ["get"],
  "/repos/{owner}/{repo}/commits/{ref}": ["get"],
  "/repos/{owner}/{repo}/contents/{path}": ["get"],
  "/repos/{owner}/{repo}/git/blobs/{file_sha}": ["get"],
  "/repos/{owner}/{repo}/check-runs": ["post"],
  "/repos/{owner}/{repo}/check-runs/{check_run_id}": ["patch"],
};

/**
 * GitHub's REST description from @octokit/openapi ("api.github.com", "ghes-3.19", ...), cut down
 * to GITHUB_OPERATIONS and every component they reference, copied verbatim: Prism validates those
 * operations exactly as against the whole document, and starts in a second or two instead of
 * parsing 13 MB for each test file (15 s idle, over 90 s on the loaded 2-core machine).
 */
export function gitHubDescription(name = "api.github.com", operations = GITHUB_OPERATIONS): string {
  const source = join(dirname(require.resolve("@octokit/openapi/package.json")), "generated", `${name}.json`);
  const { "x-webhooks": _webhooks, ...whole } = JSON.parse(readFileSync(source, "utf8")) as {
    "x-webhooks": unknown;
    paths: Record<string, Record<string, unknown>>;
    components: Record<string, Record<string, unknown>>;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(operations)) {
    const item = whole.paths[path];
    if (item === undefined) throw new Error(`${name} has no ${path}`);
    paths[path] = Object.fromEntries(
      Object.entries(item).filter(([key]) => methods.includes(key) || !HTTP_METHODS.has(key)),
    );
  }
  const components: Record<string, Record<string, unknown>> = {};
  const pending: unknown[] = [paths];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        const ref =
          key === "$ref" && typeof value === "string" ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(value) : null;
        if (ref) {
          const [, kind, componentName] = ref as unknown as [string, string, string];
          components[kind] ??= {};
          if (!(componentName in components[kind]!)) {
            components[kind]![componentName] = whole.components[kind]![componentName];
            pending.push(components[kind]![componentName]);
          }
        } else pending.push(value);
      }
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "verdict-github-description-"));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...whole, paths, components }));
  return file;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export interface Prism {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `prism mock` on a description; resolves once it listens (killed if it does not within 60 s). */
export async function startPrism(description: string): Promise<Prism> {
  const port = await freePort();
  const cli = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "mock", "-h", "127.0.0.1", "-p", String(port), description],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`Prism did not start in 60 s:\n${log.slice(-2000)}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${log.slice(-2000)}`));
    });
  });
  // Keep draining its log so that it never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface Exchange {
  method: string;
  /** The path and query as the client sent them (before any prefix is stripped). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  /** What Prism said was wrong with the request (empty when it accepted it or did not see it). */
  violations: string[];
  /** Answered by the front itself (a fault), never seen by Prism. */
  injected: boolean;
}

export interface Fault {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface PrismFront {
  url: string;
  exchanges: Exchange[];
  /** The next request matching `match` gets Prism's answer with a Link to `next` as its next page. */
  nextPage(match: (method: string, path: string) => boolean, next: string): void;
  /**
   * Requests matching `match` still go to Prism and are checked as ever; once Prism accepts one,
   * its answer's body is `answer(path)` instead of the description's example (a test's own
   * repository, files and contents). The latest matching rule wins.
   */
  answerWith(match: (method: string, path: string) => boolean, answer: (path: string) => unknown): void;
  /** The next requests matching `match` get these answers, one each, instead of Prism's. */
  inject(match: (method: string, path: string) => boolean, ...faults: Fault[]): void;
  /** Every request matching `match` gets this answer instead of Prism's, until the returned function is called. */
  injectAlways(match: (method: string, path: string) => boolean, fault: Fault): () => void;
  /** The exchanges whose request Prism refused as not matching GitHub's description. */
  rejected(): Exchange[];
  close(): Promise<void>;
}

/**
 * A real HTTP server in front of Prism. stripPrefix takes a base path off before forwarding
 * (GitHub Enterprise Server serves the REST API under /api/v3; the description's paths omit it).
 */
export async function startFront(prismUrl: string, options: { stripPrefix?: string } = {}): Promise<PrismFront> {
  const target = new URL(prismUrl);
  const faults: Array<{ match: (method: string, path: string) => boolean; fault: Fault }> = [];
  const standingFaults: typeof faults = [];
  const pages: Array<{ match: (method: string, path: string) => boolean; next: string }> = [];
  const answers: Array<{ match: (method: string, path: string) => boolean; answer: (path: string) => unknown }> = [];
  const exchanges: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? "GET";
      const path = req.url ?? "/";
      const record = (status: number, violations: string[], injected: boolean) =>
        exchanges.push({ method, path, headers: req.headers, body: body.toString(), status, violations, injected });
      const faultIndex = faults.findIndex((f) => f.match(method, path));
      const standing = standingFaults.find((f) => f.match(method, path));
      if (faultIndex >= 0 || standing) {
        const { fault } = faultIndex >= 0 ? faults.splice(faultIndex, 1)[0]! : standing!;
        record(fault.status, [], true);
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ message: `injected ${fault.status}` }));
        return;
      }
      let forwardPath = path;
      if (options.stripPrefix) {
        if (!path.startsWith(options.stripPrefix)) {
          record(404, [`outside ${options.stripPrefix}`], true);
          res.writeHead(404).end();
          return;
        }
        forwardPath = path.slice(options.stripPrefix.length) || "/";
      }
      // GitHub's media types (application/vnd.github+json, ...v3+json) are JSON (the +json suffix
      // of RFC 6839) and its description declares application/json; Prism's negotiation does not
      // know the suffix and would answer 406, so the front says plain JSON. Parameters and
      // bodies are still checked whole.
      const accept = String(req.headers.accept ?? "").replace(
        /application\/vnd\.github(\.[\w-]+)?\+json/g,
        "application/json",
      );
      const headers = { ...req.headers, accept, host: target.host };
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method, path: forwardPath, headers },
        (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => answerChunks.push(chunk));
          answer.on("end", () => {
            let answerBody = Buffer.concat(answerChunks);
            const violations = requestViolations(answer.statusCode ?? 0, answer.headers, answerBody);
            record(answer.statusCode ?? 0, violations, false);
            // The description's example Link points at a placeholder (https://api.github.com/resource?page=2):
            // dropped, so that a list ends after one page unless the test gave it a next one.
            const { link: _placeholder, "content-length": _length, ...answerHeaders } = answer.headers;
            const own = answers.findLast((a) => a.match(method, path));
            if (own && violations.length === 0 && (answer.statusCode ?? 0) < 300)
              answerBody = Buffer.from(JSON.stringify(own.answer(path)));
            const pageIndex = pages.findIndex((p) => p.match(method, path));
            if (pageIndex >= 0) {
              const { next } = pages.splice(pageIndex, 1)[0]!;
              answerHeaders.link = `<${next}>; rel="next"`;
            }
            res.writeHead(answer.statusCode ?? 502, answerHeaders);
            res.end(answerBody);
          });
        },
      );
      upstream.on("error", (error) => {
        record(502, [String(error)], false);
        res.writeHead(502).end();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.stripPrefix ?? ""}`,
    exchanges,
    answerWith(match, answer) {
      answers.push({ match, answer });
    },
    nextPage(match, next) {
      pages.push({ match, next });
    },
    inject(match, ...list) {
      for (const fault of list) faults.push({ match, fault });
    },
    injectAlways(match, fault) {
      const entry = { match, fault };
      standingFaults.push(entry);
      return () => void standingFaults.splice(standingFaults.indexOf(entry), 1);
    },
    rejected: () => exchanges.filter((e) => e.violations.length > 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Prism's verdict on the request: a problem+json answer of type UNPROCESSABLE_ENTITY (or
 * another of its own errors: no such route, a method the path lacks) lists what was wrong;
 * the sl-violations header lists what it noted without refusing (all but the response's: the
 * examples' own mismatches with GitHub's schemas are not Verdict's requests).
 */
function requestViolations(status: number, headers: IncomingHttpHeaders, body: Buffer): string[] {
  const found: string[] = [];
  if (String(headers["content-type"] ?? "").includes("application/problem+json")) {
    const problem = JSON.parse(body.toString()) as {
      type?: string;
      title?: string;
      validation?: { location: string[]; message: string }[];
    };
    if (problem.type?.startsWith("https://stoplight.io/prism/errors#")) {
      found.push(
        `${status} ${problem.title}`,
        ...(problem.validation ?? []).map((v) => `${v.location.join(".")}: ${v.message}`),
      );
    }
  }
  const noted = headers["sl-violations"];
  if (typeof noted === "string") {
    for (const v of JSON.parse(noted) as { location: string[]; message: string }[]) {
      if (v.location[0] !== "response") found.push(`${v.location.join(".")}: ${v.message}`);
    }
  }
  return found;
}
