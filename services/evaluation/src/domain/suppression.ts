// Inline suppression: `verdict-ignore` or `verdict-ignore <policy-or-rule-id>: <reason>` in a
// comment at the end of the finding's line, or in a comment on a line of its own just before it.

export interface Marker {
  /** The policy or rule id it names; undefined silences every finding it covers. */
  target?: string;
  reason: string;
  /** The comment is alone on its line, so it speaks about the next line. */
  standalone: boolean;
}

// The marker must follow a comment opener on its line, so that string data mentioning it does
// not silence anything.
const MARKER =
  /(?:#|\/\/|\/\*|<!--|--|;|^\s*\*|\bREM\b|')\s*verdict-ignore(?:[ \t]+([a-z0-9][a-z0-9-]*))?(?:[ \t]*:[ \t]*([^\r\n]*?))?[ \t]*(?:\*\/|-->)?[ \t]*$/;
const MAX_REASON = 500;

export function parseMarker(line: string): Marker | undefined {
  if (!line.includes("verdict-ignore")) return undefined;
  const m = MARKER.exec(line);
  if (!m) return undefined;
  return {
    ...(m[1] ? { target: m[1] } : {}),
    reason: (m[2] ?? "").trim().slice(0, MAX_REASON),
    standalone: line.slice(0, m.index).trim() === "",
  };
}

/** Whether a marker covers a finding of this policy and rule. */
export function covers(marker: Marker, policyId: string, ruleId: string): boolean {
  return marker.target === undefined || marker.target === policyId || marker.target === ruleId;
}
