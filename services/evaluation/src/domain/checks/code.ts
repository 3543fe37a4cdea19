// Checks of source code: what a name is bound to (JavaScript, Python) and how a Go query is built
// and used, read from the file with bounded work per match.
import type { CheckInput } from "./input.js";

// What a name is bound to, per file: a file is read once per name, however many matches ask.
const bindingCache = new WeakMap<Buffer, Map<string, boolean>>();
const declarationCache = new WeakMap<Buffer, Map<string, readonly { index: number; childProcess: boolean }[]>>();

/**
 * The receiver of `x.exec(…)` (the rule's capture group) is Node's child_process module:
 * `const x = require("child_process")`, `import x from "node:child_process"`, `import * as x …`,
 * or the module's usual names. RegExp#exec and other exec methods are not. When the file declares
 * the name more than once, the nearest declaration before the call in a block that encloses it
 * decides (`var foo = /re/` inside a function shadows an outer `var foo = require("child_process")`).
 */
export function jsChildProcessReceiver(input: CheckInput): boolean {
  const name = input.secret;
  if (/^(?:child_?process|childProcess|cp)$/.test(name)) return true;
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return false;
  let names = declarationCache.get(input.content);
  if (!names) declarationCache.set(input.content, (names = new Map()));
  let declarations = names.get(name);
  if (declarations === undefined) {
    const text = input.content.toString("utf8");
    const id = name.replace(/\$/g, "\\$");
    const module = String.raw`["'](?:node:)?child_process["']`;
    const childProcess = new RegExp(
      String.raw`^(?:(?:const|let|var)\s+${id}\s*=\s*(?:\w+\.\w+\()?require\(\s*${module}|import\s+(?:\*\s+as\s+)?${id}\s+from\s+${module})`,
    );
    const declaration = new RegExp(
      String.raw`\b(?:const|let|var)\s+${id}\s*=|\bimport\s+(?:\*\s+as\s+)?${id}\s+from\b`,
      "g",
    );
    declarations = [...text.matchAll(declaration)].map((m) => ({
      index: Buffer.byteLength(text.slice(0, m.index)),
      childProcess: childProcess.test(text.slice(m.index, m.index + 200)),
    }));
    names.set(name, declarations);
  }
  // The nearest declaration whose block is still open at the call (a `}` between them that closes
  // it means it was another function's).
  for (let i = declarations.length - 1; i >= 0; i--) {
    const d = declarations[i]!;
    if (d.index < input.start && blockStaysOpen(input.content, d.index, input.start)) return d.childProcess;
  }
  return declarations.some((d) => d.childProcess);
}

/** No `}` between from and to closes a block that was open at from (braces counted, no parsing). */
function blockStaysOpen(content: Buffer, from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    if (content[i] === 0x7b) depth++;
    else if (content[i] === 0x7d && --depth < 0) return false;
  }
  return true;
}

/** The rest of the match's line (at most 1 KiB), as text. */
function restOfLine(input: CheckInput): string {
  const lineEnd = input.content.indexOf(10, input.start);
  return input.content.toString(
    "utf8",
    input.start,
    Math.min(lineEnd === -1 ? input.content.length : lineEnd, input.start + 1024),
  );
}

/** Go source without its string literals and line comments (emptied, so positions do not matter). */
const goWithoutStrings = (code: string) =>
  code.replace(/"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)+'/g, '""').replace(/\/\/[^\n]*/g, "");

/**
 * The rest of the match's statement: its line, and the lines after it while the parentheses it
 * opened are still open (gofmt wraps a long call's arguments onto the next lines), up to 10 lines
 * or 1 KiB.
 */
function restOfGoStatement(input: CheckInput): string {
  let text = "";
  let from = input.start;
  for (let lines = 0; lines < 10 && text.length < 1024; lines++) {
    const lineEnd = input.content.indexOf(10, from);
    text += `${input.content.toString("utf8", from, lineEnd === -1 ? input.content.length : lineEnd)}\n`;
    const code = goWithoutStrings(text);
    if (lineEnd === -1 || (code.match(/\(/g)?.length ?? 0) <= (code.match(/\)/g)?.length ?? 0)) break;
    from = lineEnd + 1;
  }
  return text.slice(0, 1024);
}

/**
 * In Go files, some value spliced into the statement on the match's line (and the lines its call
 * continues on) is not a constant: a call (other than a conversion or a number formatter), or a name that is not declared `const NAME = …`
 * (or `NAME [type] = "…"` in a const or var block) in the file and not wrapped in a quoting call
 * (pq.QuoteIdentifier, QuoteLiteral) or an HTML escaper (html.EscapeString). String literals and
 * numbers are not values.
 */
// Calls whose result carries no outside data into a statement: conversions (their argument is read
// on its own), lengths and number formatters, placeholder builders, and the formatting or
// database calls that build or run the statement itself.
const GO_CALLS_NOT_DATA =
  /^(?:string|u?int(?:8|16|32|64)?|float(?:32|64)|byte|rune|template\.(?:HTML|HTMLAttr|JS|JSStr|URL|CSS|Srcset)|len|cap|strconv\.(?:Itoa|FormatInt|FormatUint|FormatFloat|FormatBool|Quote)|strings\.Repeat|fmt\.(?:Sprintf|Sprint|Sprintln|Errorf)|\w+\.(?:Query|QueryRow|QueryContext|QueryRowContext|Exec|ExecContext|Prepare|PrepareContext|Raw|Select|Get|NamedQuery|NamedExec|MustExec))$/;

export function goSplicesVariable(input: CheckInput): boolean {
  // Other languages' constants look different: no opinion there.
  if (!/\.go$/i.test(input.path)) return true;
  const code = restOfGoStatement(input)
    .replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, '""')
    .replace(
      /\b[\w.]*(?:Quote(?:Identifier|Literal|Ident)|EscapeString|HTMLEscapeString|JSEscapeString)\s*\([^()]*\)/g,
      '""',
    )
    // The writer fmt.Fprintf writes to is no value spliced in.
    .replace(/^\s*fmt\.Fprint[fl]?\s*\(\s*[\w.]+\s*,/, "fmt.Sprintf(")
    .replace(/\/\/[^\n]*/g, "");
  // What the statement assigns to (q :=, rows, err =) receives the value; it is not spliced in.
  const spliced = code.replace(/^\s*[\w.]+(?:\s*,\s*[\w.]+)*\s*(?::=|\+=|=)/, "");
  const values = [...spliced.matchAll(/\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\b\s*(\()?/g)]
    // A call's result is data like any variable, except conversions (their argument is read
    // on its own) and functions whose result cannot carry SQL (lengths, numbers).
    .filter((m) => !/^(?:true|false|nil|iota)$/.test(m[1]!) && !(m[2] && GO_CALLS_NOT_DATA.test(m[1]!)))
    .map((m) => m[1]!);
  if (!values.length) return false;
  const text = input.content.toString("utf8");
  return values.some((name) => {
    if (name.includes(".")) return !/^(?:os\.DevNull|runtime\.GOOS|runtime\.GOARCH)$/.test(name);
    const literal = String.raw`=[ \t]*(?:"[^"\n]*"|\x60[^\x60]*\x60|[0-9.]+)[ \t]*(?://.*)?$`;
    const constant = new RegExp(
      String.raw`(?:\bconst\s+${name}\b|^[ \t]*(?:var[ \t]+)?${name}[ \t]+(?:[A-Za-z_]\w*[ \t]+)?${literal})`,
      "m",
    );
    return !constant.test(text) && !goAssignedOnlyConstants(text, name);
  });
}

const GO_LITERAL = String.raw`(?:"(?:[^"\\\n]|\\.)*"|\x60[^\x60]*\x60|'(?:[^'\\\n]|\\.)+'|[0-9][0-9.]*)`;

/**
 * Every assignment the Go file makes to `name` (`:=`, `=`, `var name =`) is the String() of a
 * strings.Builder that is only ever written literals: placeholders built in a loop
 * (`ph.WriteString("?")`). A name assigned any other way (a parameter, a multiple assignment, a
 * literal, a call, `+=`) is not taken for one. Literals assigned with `:=` stay reported, as before:
 * gosec labels `a := "…"; template.HTML(a)` a finding, and so does Verdict.
 */
function goAssignedOnlyConstants(text: string, name: string): boolean {
  if (
    new RegExp(
      String.raw`\b${name}\s*,[\w\s,]*(?::=|=)|,\s*${name}\s*(?:,[\w\s,]*)?(?::=|=)|\bfunc\b[^\n{]*\([^)]*\b${name}\s+[\w.*\[\]]+`,
    ).test(text)
  )
    return false;
  const assignments = [
    ...text.matchAll(
      new RegExp(String.raw`(?:^|[^\w.])${name}(?:[ \t]+[\w.]+)?[ \t]*(?::=|\+=|=(?!=))[ \t]*([^\n]*)`, "gm"),
    ),
  ];
  if (!assignments.length) return false;
  return assignments.every((m) => {
    const built = /^([A-Za-z_]\w*)\.String\(\)$/.exec(m[1]!.replace(/\/\/.*$/, "").trim());
    return built !== null && !m[0].includes("+=") && goConstantBuilder(text, built[1]!);
  });
}

/** A strings.Builder the file declares and only ever writes literals to (never passes on). */
function goConstantBuilder(text: string, builder: string): boolean {
  const declared = new RegExp(
    String.raw`\bvar[ \t]+${builder}[ \t]+strings\.Builder\b|\b${builder}[ \t]*:=[ \t]*(?:&?strings\.Builder\{\}|new\(strings\.Builder\))`,
  );
  if (!declared.test(text) || new RegExp(String.raw`&${builder}\b`).test(text)) return false;
  const calls = [...text.matchAll(new RegExp(String.raw`\b${builder}\.(\w+)\(([^()\n]*)\)`, "g"))];
  return calls.every(
    ([, method, arg]) =>
      /^(?:Reset|Grow|Len|Cap|String)$/.test(method!) ||
      (/^Write(?:String|Byte|Rune)$/.test(method!) && new RegExp(String.raw`^\s*${GO_LITERAL}\s*$`).test(arg!)),
  );
}

/**
 * The receiver of `alias.new(…)` (the rule's capture group) is a weak PyCrypto/PyCryptodome
 * cipher module, by name or imported under another one
 * (`from Crypto.Cipher import ARC4 as rc4`).
 */
export function pythonWeakCipherModule(input: CheckInput): boolean {
  const name = input.secret;
  if (/^(?:DES3?|ARC[24]|Blowfish|CAST|XOR)$/.test(name)) return true;
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  let names = bindingCache.get(input.content);
  if (!names) bindingCache.set(input.content, (names = new Map()));
  const key = `py-weak-cipher:${name}`;
  let bound = names.get(key);
  if (bound === undefined) {
    const imported = new RegExp(
      String.raw`\bimport\s+(?:[\w\s,]*,\s*)?(?:DES3?|ARC[24]|Blowfish|CAST|XOR)\s+as\s+${name}\b|\bimport\s+Crypto(?:dome)?\.Cipher\.(?:DES3?|ARC[24]|Blowfish|CAST|XOR)\s+as\s+${name}\b`,
    );
    bound = imported.test(input.content.toString("utf8"));
    names.set(key, bound);
  }
  return bound;
}

/**
 * The match is a plain call, not a method of some object (`model.eval()`, `re.exec(s)`): the
 * byte before it is no `.`, unless the object is the global one (`window.eval`).
 */
export function notMemberCall(input: CheckInput): boolean {
  if (input.start === 0 || input.content[input.start - 1] !== 0x2e) return true;
  const before = input.content.toString("latin1", Math.max(0, input.start - 12), input.start - 1);
  return /(?:^|[^\w$])(?:window|globalThis|self|global)$/.test(before);
}

// Go: lines that only show a value (print it, log it, discard it), never run it.
const GO_SHOWS_ONLY =
  /^\s*(?:_\s*=|(?:fmt\.(?:Print|Fprint)\w*|log\.\w+|\w+\.(?:Debug|Info|Warn|Warning|Error|Print|Trace)[fw]?)\s*\()/;
const MAX_SCOPE_BYTES = 256 * 1024;

/**
 * In Go files, a query built on the match's line and assigned to a name (`q := fmt.Sprintf(…)`,
 * `query += x`) is used, within the scope of the name's declaration, by something other than
 * printing, logging or `_ =`: run, returned, passed on. A query only printed (`fmt.Fprintf(os.Stderr,
 * …, q)`) or built on a shadowing name in an inner block that nothing reads runs nowhere. Scopes
 * are found by counting braces from the declaration (`q :=`, `var q`); a name declared elsewhere
 * (a parameter, another file), a package-level name (other files may run it) or a statement that
 * assigns nothing keeps the finding. Other languages: no opinion.
 */
export function goQueryIsUsed(input: CheckInput): boolean {
  if (!/\.go$/i.test(input.path)) return true;
  const content = input.content;
  const lineStart = input.start === 0 ? 0 : content.lastIndexOf(10, input.start - 1) + 1;
  const lineEndAt = content.indexOf(10, input.start);
  const lineEnd = lineEndAt === -1 ? content.length : lineEndAt;
  const line = content.toString("utf8", lineStart, Math.min(lineEnd, lineStart + 1024));
  const assigned =
    /^\s*(?:var\s+)?([A-Za-z_]\w*)(?:\s+string)?\s*(?:(:=|=)\s*(?:fmt\.Sprintf\s*\(|["\x60]|\1\s*\+)|\+=)/.exec(line);
  if (!assigned) return true;
  const name = assigned[1]!;
  const declares = (text: string) => new RegExp(String.raw`^\s*(?:var\s+${name}\b|${name}\s*:=)`).test(text);
  // The depth of the declaring block relative to the match's (0: the same block, -1: its parent…).
  let declaredAt: number | undefined = assigned[2] === ":=" || /^\s*var\s/.test(line) ? 0 : undefined;
  if (declaredAt === undefined) {
    let depth = 0;
    let end = lineStart - 1;
    const floor = Math.max(0, lineStart - MAX_SCOPE_BYTES);
    while (end > floor && declaredAt === undefined) {
      const start = content.lastIndexOf(10, end - 1) + 1;
      const text = content.toString("utf8", start, end);
      for (let i = text.length - 1; i >= 0; i--) {
        if (text[i] === "}") depth++;
        else if (text[i] === "{") depth--;
      }
      if (depth <= 0 && declares(text)) declaredAt = depth;
      end = start - 1;
    }
  }
  if (declaredAt === undefined) return true;
  const use = new RegExp(String.raw`(?:^|[^\w.])${name}\b`);
  const builds = new RegExp(String.raw`^\s*${name}\s*(?:\+=|=\s*${name}\s*\+)`);
  let depth = 0;
  let start = lineEnd + 1;
  const limit = Math.min(content.length, lineEnd + MAX_SCOPE_BYTES);
  while (start < limit) {
    const next = content.indexOf(10, start);
    const end = next === -1 ? content.length : next;
    const text = content.toString("utf8", start, end);
    if (use.test(text.replace(/"(?:[^"\\]|\\.)*"|\/\/.*$/g, '""')) && !builds.test(text) && !GO_SHOWS_ONLY.test(text))
      return true;
    for (const c of text) {
      if (c === "{") depth++;
      else if (c === "}" && --depth < declaredAt) return false;
    }
    start = end + 1;
  }
  // The declaring block never closed: a package-level name, which other files can read and run.
  return true;
}

// Python: the names a file only ever assigns constants, computed once per file.
const pythonConstantsCache = new WeakMap<Buffer, ReadonlySet<string>>();
const PY_STRING = /[rRbBuUfF]{0,2}(?:"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g;
// What an expression built only from constants may contain besides names: literals (replaced by
// ''), numbers, operators, brackets, and string methods called on them.
const PY_CONSTANT_METHODS = /\.(?:format|join|strip|lstrip|rstrip|lower|upper|title|capitalize|replace|encode)\s*\(/g;
const PY_BUILTIN_CONSTANTS = new Set(["True", "False", "None"]);

/** Identifiers an expression reads (not attributes, not keyword-argument names). */
function pythonNamesRead(expression: string): string[] {
  // An f-string with a replacement field reads values: a name no file assigns stands for them.
  const literal = (m: string) => (/^[rRbBuU]?[fF]/.test(m) && m.includes("{") ? " __fstring__ " : "''");
  const code = expression.replace(PY_STRING, literal).replace(/#.*$/gm, "").replace(PY_CONSTANT_METHODS, "(");
  return [...code.matchAll(/(?<![\w.])([A-Za-z_]\w*)(?!\s*=[^=])/g)]
    .map((m) => m[1]!)
    .filter((n) => !PY_BUILTIN_CONSTANTS.has(n));
}

/**
 * Names a Python file assigns only constants to (`x = '<b>ok</b>'`, `x += ' more'`,
 * `y = '{}'.format(x)`, `a, _ = ('…', '')`) and binds no other way (parameter, loop variable,
 * import, `with … as`, `except … as`). Greatest fixed point: names that read each other stay
 * constant unless one of them reads something else (a call, an attribute, a parameter).
 */
function pythonConstantNames(content: Buffer): ReadonlySet<string> {
  const cached = pythonConstantsCache.get(content);
  if (cached) return cached;
  const text = content.toString("utf8");
  const reads = new Map<string, Set<string>>();
  const notConstant = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(\+?=)(?!=)[ \t]*(.*)$/gm)) {
    const targets = m[1]!.split(",").map((t) => t.trim());
    const rhs = m[3]!;
    // A value that goes on past its line (an open bracket) is not read whole: not constant.
    const code = rhs.replace(PY_STRING, "''");
    const unclosed = (code.match(/[([{]/g) ?? []).length > (code.match(/[)\]}]/g) ?? []).length;
    for (const t of targets) {
      if (unclosed) notConstant.add(t);
      const set = reads.get(t) ?? new Set<string>();
      for (const n of pythonNamesRead(rhs)) set.add(n);
      reads.set(t, set);
    }
  }
  // Other bindings: parameters, loop variables, imports, with/except targets, globals.
  const bound =
    /\bdef\s+\w+\s*\(([^)]*)\)|\bfor[ \t]+([\w \t,()]+?)[ \t]+in\b|\bas[ \t]+([A-Za-z_]\w*)|\bimport[ \t]+([\w \t,.()]+)|\blambda\b([^:\n]*):/g;
  for (const m of text.matchAll(bound)) {
    const names = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "").replace(/=[^,]*/g, "").match(/[A-Za-z_]\w*/g) ?? [];
    for (const n of names) notConstant.add(n);
  }
  const constants = new Set([...reads.keys()].filter((n) => !notConstant.has(n)));
  for (let changed = true; changed;) {
    changed = false;
    for (const n of constants) {
      if ([...reads.get(n)!].some((r) => !constants.has(r))) {
        constants.delete(n);
        changed = true;
      }
    }
  }
  pythonConstantsCache.set(content, constants);
  return constants;
}

/**
 * In Python files, the call's argument (the rest of the match's line after its first `(`) reads
 * some name that is not a constant of the file (pythonConstantNames): `mark_safe(greeting)` where
 * `greeting = '<b>Hi</b>'` is the only assignment marks a constant safe, which is no XSS. Other
 * languages: no opinion.
 */
export function pythonDynamicArgument(input: CheckInput): boolean {
  if (!/\.pyw?$/i.test(input.path)) return true;
  const line = restOfLine(input);
  const args = line.slice(line.indexOf("(") + 1);
  const names = pythonNamesRead(args);
  if (!names.length) return true;
  const constants = pythonConstantNames(input.content);
  return names.some((n) => !constants.has(n));
}
