// What every command gets: the configured client, and an output that knows whether to print
// JSON, tables or colours. Commands return data; printing goes through here.
import { createRequire } from "node:module";
import type TableType from "cli-table3";
import { VerdictClient, type RetryNotice } from "@verdict/sdk";
import { resolveConfig } from "./config.js";
import { CliError } from "./errors.js";
import { colors, useColor, type Colors } from "./format/colors.js";
import { VERSION } from "./version.js";

export interface Io {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export class Output {
  readonly c: Colors;
  readonly err: Colors;
  constructor(
    private readonly io: Io,
    readonly json: boolean,
  ) {
    this.c = colors(useColor(io.stdout, io.env));
    this.err = colors(useColor(io.stderr, io.env));
  }

  line(text = ""): void {
    this.io.stdout.write(text + "\n");
  }

  /** Notes for people (progress, hints) go to stderr so stdout stays parseable. */
  note(text: string): void {
    this.io.stderr.write(text + "\n");
  }

  data(value: unknown): void {
    this.line(JSON.stringify(value, null, 2));
  }

  /** A borderless table: a header row, then one row per item. */
  table(head: string[], rows: (string | number | boolean | null | undefined)[][]): void {
    if (rows.length === 0) {
      this.line(this.c.dim("(none)"));
      return;
    }
    // Loaded for tables only, not at every start of the CLI.
    const Table = createRequire(import.meta.url)("cli-table3") as typeof TableType;
    const t = new Table({
      head: head.map((h) => this.c.bold(h)),
      chars: {
        top: "",
        "top-mid": "",
        "top-left": "",
        "top-right": "",
        bottom: "",
        "bottom-mid": "",
        "bottom-left": "",
        "bottom-right": "",
        left: "",
        "left-mid": "",
        mid: "",
        "mid-mid": "",
        right: "",
        "right-mid": "",
        middle: "  ",
      },
      style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    });
    for (const r of rows) t.push(r.map((v) => (v === null || v === undefined ? "-" : String(v))));
    this.line(
      t
        .toString()
        .split("\n")
        .map((l) => l.trimEnd())
        .join("\n"),
    );
  }

  /** Key/value lines for one record. */
  record(fields: [string, unknown][]): void {
    const width = Math.max(...fields.map(([k]) => k.length));
    for (const [k, v] of fields)
      this.line(
        `${this.c.bold(k.padEnd(width))}  ${v === null || v === undefined || v === "" ? "-" : Array.isArray(v) ? v.join(", ") : String(v)}`,
      );
  }
}

export class Context {
  constructor(readonly io: Io) {}

  output(json: boolean): Output {
    return new Output(this.io, json);
  }

  /** The configured client; an API key is required unless `anonymous`. `onRetry` sees each retry's wait. */
  client(opts: { anonymous?: boolean; onRetry?: (retry: RetryNotice) => void } = {}): VerdictClient {
    const cfg = resolveConfig(this.io.env);
    if (!cfg.apiKey && !opts.anonymous) throw new CliError("no API key: set VERDICT_API_KEY or run 'verdict login'");
    return new VerdictClient({
      baseUrl: cfg.url,
      apiKey: cfg.apiKey,
      userAgent: `verdict-cli/${VERSION}`,
      onRetry: opts.onRetry,
    });
  }
}
