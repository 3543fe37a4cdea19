// Live verification, the pure part: which violations carry a credential a provider can be asked
// about, and the credential itself, read back from the file at the violation's place (a violation
// never stores it). The asking is the verifier's (liveVerifier.ts); the setting is the
// organization's (off by default).
import type { LiveVerificationProvider, VerificationState } from "@verdict/kit";
import type { Finding } from "./engineTypes.js";

/** The rules whose findings a provider can verify, and that provider. */
export const VERIFIABLE_RULES: Readonly<Record<string, LiveVerificationProvider>> = {
  "aws-access-key-id": "aws",
  "aws-secret-access-key": "aws",
  "github-classic-token": "github",
  "github-fine-grained-token": "github",
  "github-oauth-token": "github",
  "slack-bot-token": "slack",
  "slack-user-token": "slack",
  "stripe-live-secret-key": "stripe",
  "stripe-test-secret-key": "stripe",
};

/**
 * Findings of a scan that asks no provider (`verdict evaluate --offline`, `scan history
 * --offline`): each credential a provider could verify says it was not checked, as the service
 * says for an organization that did not turn live verification on.
 */
export function notChecked<F extends Pick<Finding, "rule_id">>(findings: readonly F[]): F[] {
  return findings.map((f) => (VERIFIABLE_RULES[f.rule_id] ? { ...f, verification: "not_checked" } : f));
}

export interface AwsCredential {
  provider: "aws";
  accessKeyId: string;
  secretAccessKey: string;
}

/** A bearer token its provider answers "who am I" for. */
export interface TokenCredential {
  provider: Exclude<LiveVerificationProvider, "aws">;
  token: string;
}

export type Credential = AwsCredential | TokenCredential;

/** One credential to ask about, and the violations (indexes into the evaluation's) that show it. */
export interface CredentialCheck {
  credential: Credential;
  violations: number[];
}

/** The line `line` (1-based) of a file from column `column` (1-based, in code points) on. */
export function lineFrom(content: Buffer, line: number, column: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = content.indexOf(10, start);
    if (next < 0) return "";
    start = next + 1;
  }
  const end = content.indexOf(10, start);
  const text = content.toString("utf8", start, end < 0 ? content.length : end);
  return Array.from(text)
    .slice(column - 1)
    .join("");
}

// An access key id is the whole match (aws-access-key-id); a secret access key follows its name and
// the assignment (aws-secret-access-key's capture group): 40 characters of base64.
const ACCESS_KEY_ID = /^[A-Z0-9]{20}/;
const SECRET_ACCESS_KEY = /^[^\n]*?(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/;
// Bearer tokens are the whole match: a prefix, then the token's characters. Slack: bot and user
// tokens only (a refresh token, `xoxe-`, is usable only where using it rotates it).
const BEARER_TOKEN: Readonly<Record<TokenCredential["provider"], RegExp>> = {
  github: /^(?:gh[po]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})(?![A-Za-z0-9_])/,
  slack:
    /^(?:xoxb-[0-9]{8,14}-(?:[0-9]{10,13}-[A-Za-z0-9]{24,34}|[A-Za-z0-9]{18,26})|xoxp(?:-[0-9]{10,13}){3}-[A-Za-z0-9]{28,34})(?![A-Za-z0-9_-])/,
  stripe: /^(?:sk|rk)_(?:live|prod|test)_[A-Za-z0-9]{24,247}(?![A-Za-z0-9_-])/,
};

/**
 * The credentials the violations show, one check per distinct credential. AWS needs a pair: each
 * access key id is paired with the secret access key found nearest to it in the same file. A
 * violation of a verifiable rule that is in no check (an access key id with no secret beside it)
 * is in `unchecked`: there is nothing to ask with.
 */
export function credentialsToCheck(
  files: readonly { path: string; content: Buffer }[],
  violations: readonly Pick<Finding, "file" | "line" | "column" | "rule_id">[],
): { checks: CredentialCheck[]; unchecked: number[] } {
  const contents = new Map(files.map((f) => [f.path, f.content]));
  const byFile = new Map<string, { ids: { at: number; value: string }[]; secrets: { at: number; value: string }[] }>();
  const unchecked = new Set<number>();
  const checks = new Map<string, CredentialCheck>();
  const add = (key: string, credential: Credential, ats: number[]) => {
    const check = checks.get(key) ?? { credential, violations: [] };
    checks.set(key, check);
    for (const at of ats) {
      if (!check.violations.includes(at)) check.violations.push(at);
      unchecked.delete(at);
    }
  };
  violations.forEach((v, at) => {
    if (!VERIFIABLE_RULES[v.rule_id]) return;
    unchecked.add(at);
    const content = contents.get(v.file);
    if (!content) return;
    const rest = lineFrom(content, v.line, v.column);
    const entry = byFile.get(v.file) ?? { ids: [], secrets: [] };
    byFile.set(v.file, entry);
    const provider = VERIFIABLE_RULES[v.rule_id]!;
    if (provider !== "aws") {
      const token = BEARER_TOKEN[provider].exec(rest)?.[0];
      if (token) add(`${provider}\n${token}`, { provider, token }, [at]);
    } else if (v.rule_id === "aws-access-key-id") {
      const value = ACCESS_KEY_ID.exec(rest)?.[0];
      if (value) entry.ids.push({ at, value });
    } else {
      const value = SECRET_ACCESS_KEY.exec(rest)?.[1];
      if (value) entry.secrets.push({ at, value });
    }
  });
  for (const { ids, secrets } of byFile.values()) {
    for (const id of ids) {
      const distance = (s: { at: number }) => Math.abs(violations[s.at]!.line - violations[id.at]!.line);
      const secret = secrets.reduce<(typeof secrets)[number] | undefined>(
        (best, s) => (!best || distance(s) < distance(best) ? s : best),
        undefined,
      );
      if (!secret) continue;
      add(
        `aws\n${id.value}\n${secret.value}`,
        { provider: "aws", accessKeyId: id.value, secretAccessKey: secret.value },
        [id.at, secret.at],
      );
    }
  }
  return { checks: [...checks.values()], unchecked: [...unchecked] };
}

const RANK: Record<VerificationState, number> = { live: 3, revoked: 2, unknown: 1, not_checked: 0 };

/** Of two answers about one violation (a secret paired with two key ids), the one that says more. */
export function strongerState(a: VerificationState | undefined, b: VerificationState): VerificationState {
  return a === undefined || RANK[b] > RANK[a] ? b : a;
}

/** Calls per organization and minute: a fixed one-minute window per organization. */
export class PerOrganizationRate {
  private readonly windows = new Map<string, { start: number; used: number }>();
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the organization may make one more call now (and counts it). */
  take(organizationId: string): boolean {
    const now = this.now();
    let w = this.windows.get(organizationId);
    if (!w || now - w.start >= 60_000) {
      // Windows that ended are dropped as they are met: the map holds the organizations of the last minute.
      if (this.windows.size > 10_000)
        for (const [k, v] of this.windows) if (now - v.start >= 60_000) this.windows.delete(k);
      w = { start: now, used: 0 };
      this.windows.set(organizationId, w);
    }
    if (w.used >= this.perMinute) return false;
    w.used++;
    return true;
  }
}
