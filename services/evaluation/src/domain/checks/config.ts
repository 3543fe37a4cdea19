// Checks of configuration files: Dockerfiles and Kubernetes YAML, read by lines around the match.
import type { CheckInput } from "./input.js";

// Dockerfile and YAML checks read lines of the file around the match; each stops at the first
// line that decides, so a file with many matches costs lines x matches at worst, bounded below.
const MAX_LINES_READ = 5000;

/** The file's lines after the match's line, as strings, at most MAX_LINES_READ of them. */
function* linesAfter(content: Buffer, end: number): Generator<string> {
  let start = content.indexOf(10, end);
  for (let n = 0; start !== -1 && n < MAX_LINES_READ; n++) {
    const next = content.indexOf(10, start + 1);
    yield content.toString("utf8", start + 1, next === -1 ? content.length : next);
    start = next;
  }
}

/** The file's lines before the match's line, nearest first, at most MAX_LINES_READ of them. */
function* linesBefore(content: Buffer, start: number): Generator<string> {
  let end = content.lastIndexOf(10, Math.max(0, start - 1));
  for (let n = 0; end > 0 && n < MAX_LINES_READ; n++) {
    const previous = content.lastIndexOf(10, end - 1);
    yield content.toString("utf8", previous + 1, end);
    end = previous;
  }
}

const DOCKER_FROM = /^\s*FROM\s/i;
const DOCKER_USER = /^\s*USER\s/i;

/**
 * `USER root` decides who the container runs as only when it is the last USER of the final
 * stage: a later USER switches away from root, and root in an earlier build stage never reaches
 * the image that runs.
 */
export function dockerfileFinalUser(input: CheckInput): boolean {
  for (const line of linesAfter(input.content, input.end))
    if (DOCKER_FROM.test(line) || DOCKER_USER.test(line)) return false;
  return true;
}

/** `FROM name` names an image, not an earlier build stage (`FROM base AS name` above it). */
export function dockerfileFromImage(input: CheckInput): boolean {
  const image = input.secret.trim().toLowerCase();
  for (const line of linesBefore(input.content, input.start)) {
    const stage = /^\s*FROM\s+(?:--\S+\s+)*\S+\s+AS\s+(\S+)/i.exec(line);
    if (stage && stage[1]!.toLowerCase() === image) return false;
  }
  return true;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Whether another line of the YAML mapping the match's line belongs to (the lines at its
 * indentation, up to a less indented line; a list item's mapping starts at its `- `) passes `test`.
 */
function yamlMappingHas(input: CheckInput, test: (line: string) => boolean): boolean {
  const lineStart = input.start === 0 ? 0 : input.content.lastIndexOf(10, input.start - 1) + 1;
  const lineEnd = input.content.indexOf(10, input.start);
  const line = input.content.toString("utf8", lineStart, lineEnd === -1 ? input.content.length : lineEnd);
  const indent = indentOf(line.replace(/^(\s*)- /, "$1  "));
  const after = linesAfter(input.content, input.end);
  for (const lines of /^\s*-\s/.test(line) ? [after] : [after, linesBefore(input.content, input.start)]) {
    for (const line of lines) {
      if (!line.trim() || line.trimStart().startsWith("#")) continue;
      if (indentOf(line) < indent) {
        // The list item that starts this mapping is still part of it.
        if (lines !== after && /^\s*-\s/.test(line) && indentOf(line.replace(/^(\s*)- /, "$1  ")) === indent)
          return test(line);
        break;
      }
      if (indentOf(line) === indent && test(line)) return true;
    }
  }
  return false;
}

/**
 * `runAsNonRoot: false` only lets a container run as root when its securityContext does not
 * also set a non-zero runAsUser: reads the YAML mapping around the match.
 */
export const yamlNoNonRootUser = (input: CheckInput): boolean =>
  !yamlMappingHas(input, (line) => /^\s*(?:-\s+)?runAsUser\s*:\s*["']?([1-9][0-9]*)["']?\s*(?:#.*)?$/.test(line));

/** GitLab CI: an `include: remote:` whose mapping gives no `integrity:` hash of the file. */
export const yamlNoIntegrity = (input: CheckInput): boolean =>
  !yamlMappingHas(input, (line) => /^\s*(?:-\s+)?integrity\s*:\s*\S/.test(line));

const yamlLinesCache = new WeakMap<Buffer, readonly string[]>();
const yamlIndent = (line: string) => indentOf(line.replace(/^(\s*)- /, "$1  "));
const yamlSkip = (line: string) => !line.trim() || line.trimStart().startsWith("#");

/**
 * A pod-level securityContext setting (`spec.securityContext.runAsUser: 0`, `runAsNonRoot: false`)
 * decides who a container runs as only when the container does not set a non-zero runAsUser of
 * its own: the finding stands unless the match is in the pod's securityContext and every
 * container and init container of that pod sets `runAsUser` to a non-zero user. A setting in a
 * container's own securityContext always stands (the other checks judge it).
 */
export function k8sPodSettingApplies(input: CheckInput): boolean {
  let lines = yamlLinesCache.get(input.content);
  if (!lines)
    yamlLinesCache.set(
      input.content,
      (lines = input.content
        .toString("utf8")
        .split("\n")
        .slice(0, MAX_LINES_READ * 2)),
    );
  let at = 0;
  for (let i = input.content.indexOf(10); i !== -1 && i < input.start; i = input.content.indexOf(10, i + 1)) at++;
  if (at >= lines.length) return true;
  // Up from the match: its securityContext key, then that key's parent, which must be `spec:`.
  const parentOf = (index: number): number => {
    const indent = yamlIndent(lines[index]!);
    for (let i = index - 1; i >= 0; i--) if (!yamlSkip(lines[i]!) && yamlIndent(lines[i]!) < indent) return i;
    return -1;
  };
  const context = parentOf(at);
  if (context < 0 || !/^\s*(?:-\s+)?securityContext\s*:\s*(?:#.*)?$/.test(lines[context]!)) return true;
  const spec = parentOf(context);
  if (spec < 0 || !/^\s*(?:-\s+)?spec\s*:\s*(?:#.*)?$/.test(lines[spec]!)) return true;
  const specIndent = yamlIndent(lines[spec]!);
  const childIndent = yamlIndent(lines[context]!);
  let containers = 0;
  for (let i = spec + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (yamlSkip(line)) continue;
    if (yamlIndent(line) <= specIndent) break;
    if (yamlIndent(line) !== childIndent || !/^\s*(?:initContainers|containers)\s*:\s*(?:#.*)?$/.test(line)) continue;
    // Each list item under the key: a container, which must set a non-zero runAsUser.
    let item: boolean | undefined;
    for (i = i + 1; i < lines.length; i++) {
      const entry = lines[i]!;
      if (yamlSkip(entry)) continue;
      const isItem = /^\s*-\s/.test(entry);
      if (indentOf(entry) < childIndent || (indentOf(entry) === childIndent && !isItem)) break;
      if (isItem && indentOf(entry) <= childIndent + 2) {
        if (item === false) return true;
        item = false;
        containers++;
      }
      if (/^\s*(?:-\s+)?runAsUser\s*:\s*["']?[1-9][0-9]*["']?\s*(?:#.*)?$/.test(entry)) item = true;
    }
    if (item === false) return true;
    i--;
  }
  return containers === 0;
}

const YAML_BLOCK_SCALAR = /^\s*(?:-\s+)?([\w.-]+)\s*:\s*[|>][-+0-9]*\s*(?:#.*)?$/;
const YAML_KEY_LINE = /^\s*(?:-\s+)?[\w.-]+\s*:(?:\s|$)/;

/**
 * The YAML key whose value holds the match: the key of the block scalar (`run: |`) the match's
 * line belongs to, else the key on the match's own line before it (`run: echo …`). Walks up the
 * lines of smaller indentation: a block scalar's header decides; a plain key above means the
 * line is no block scalar's text.
 */
function yamlValueKey(input: CheckInput): string | undefined {
  const lineStart = input.start === 0 ? 0 : input.content.lastIndexOf(10, input.start - 1) + 1;
  const before = input.content.toString("utf8", lineStart, input.start);
  let indent = yamlIndent(before);
  for (const line of linesBefore(input.content, input.start)) {
    if (!line.trim() || yamlIndent(line) >= indent) continue;
    indent = yamlIndent(line);
    const block = YAML_BLOCK_SCALAR.exec(line);
    if (block) return block[1];
    if (YAML_KEY_LINE.test(line)) break;
  }
  return /^\s*(?:-\s+)?([\w.-]+)\s*:\s/.exec(before)?.[1];
}

/** GitHub Actions: the match is in a step's `run:` script, which the runner's shell reads as code. */
export const ghaInRunScript = (input: CheckInput): boolean => yamlValueKey(input) === "run";

/** GitHub Actions: the match is in `script:`, the JavaScript actions/github-script runs. */
export const ghaInGithubScript = (input: CheckInput): boolean => yamlValueKey(input) === "script";
