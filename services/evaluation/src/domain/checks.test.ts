// The structural checks alone, on the inputs the engine hands them: the rule's capture group
// (or whole match), the file, its path and the match's byte offsets.
import { describe, expect, it } from "@jest/globals";
import { CHECKS, type CheckInput } from "./checks.js";

/** A check's input for the first occurrence of `match` in `file` (group = the capture, if any). */
function at(file: string, match: string, group = match, path = "a.txt"): CheckInput {
  const content = Buffer.from(file, "utf8");
  const start = content.indexOf(match);
  if (start < 0) throw new Error(`'${match}' not in the file`);
  return { secret: group, match, content, path, start, end: start + Buffer.byteLength(match) };
}
const check = (name: string) => CHECKS[name]!;

describe("dockerfile-final-user", () => {
  it("accepts USER root only when no later USER or FROM follows", () => {
    expect(check("dockerfile-final-user")(at("FROM a:1\nUSER root\nCMD x\n", "USER root"))).toBe(true);
    expect(check("dockerfile-final-user")(at("FROM a:1\nUSER root\nRUN x\nuser app\n", "USER root"))).toBe(false);
    expect(check("dockerfile-final-user")(at("FROM a:1 AS b\nUSER root\nFROM c:2\n", "USER root"))).toBe(false);
  });
});

describe("dockerfile-from-image", () => {
  it("rejects the name of an earlier build stage, case-insensitively, and accepts images", () => {
    const file = "FROM golang:1.23 AS Builder\nRUN make\nFROM builder\nFROM alpine\n";
    expect(check("dockerfile-from-image")(at(file, "FROM builder", "builder"))).toBe(false);
    expect(check("dockerfile-from-image")(at(file, "FROM alpine", "alpine"))).toBe(true);
  });
});

describe("yaml-no-non-root-user", () => {
  it("rejects runAsNonRoot: false beside a non-zero runAsUser in the same block only", () => {
    const file = [
      "containers:",
      "  - name: a",
      "    securityContext:",
      "      runAsUser: 1000",
      "      runAsNonRoot: false",
      "  - name: b",
      "    securityContext:",
      "      runAsNonRoot: false",
      "      runAsUser: 0",
    ].join("\n");
    const first = file.indexOf("runAsNonRoot");
    const second = file.indexOf("runAsNonRoot", first + 1);
    const input = (start: number): CheckInput => ({ ...at(file, "runAsNonRoot: false"), start, end: start + 19 });
    expect(check("yaml-no-non-root-user")(input(first))).toBe(false);
    expect(check("yaml-no-non-root-user")(input(second))).toBe(true);
  });
});

describe("js-child-process-receiver", () => {
  it("accepts names bound to child_process by require or import, not RegExp objects", () => {
    const file =
      'const run = require("node:child_process");\nimport * as proc from "child_process";\nconst re = /x/;\nrun.exec(a); proc.exec(b); re.exec(c);\n';
    expect(check("js-child-process-receiver")(at(file, "run.exec(a)", "run"))).toBe(true);
    expect(check("js-child-process-receiver")(at(file, "proc.exec(b)", "proc"))).toBe(true);
    expect(check("js-child-process-receiver")(at(file, "re.exec(c)", "re"))).toBe(false);
  });
});

describe("go-splices-variable", () => {
  const file = [
    'const table = "users"',
    "func f(db *sql.DB, name string) {",
    '  q1 := fmt.Sprintf("SELECT * FROM %s", table)',
    "  q2 := fmt.Sprintf(\"SELECT * FROM t WHERE n = '%s'\", name)",
    '  q3 := fmt.Sprintf("SELECT * FROM %s", pq.QuoteIdentifier(name))',
    "  q4 := fmt.Sprintf(\"SELECT * FROM t WHERE n = '%s' AND m = %d\", // the values, wrapped",
    "    name, len(name))",
    '  q5 := fmt.Sprintf("SELECT * FROM %s WHERE a = 1",',
    "    table)",
    "  db.Query(q4 + q5, other)",
    "}",
  ].join("\n");
  const go = (m: string) => at(file, m, m, "store.go");

  it("rejects statements built from constants or quoted identifiers, accepts variables", () => {
    expect(check("go-splices-variable")(go('fmt.Sprintf("SELECT * FROM %s", table)'))).toBe(false);
    expect(check("go-splices-variable")(go("fmt.Sprintf(\"SELECT * FROM t WHERE n = '%s'\", name)"))).toBe(true);
    expect(check("go-splices-variable")(go('fmt.Sprintf("SELECT * FROM %s", pq.QuoteIdentifier(name))'))).toBe(false);
  });

  it("reads the arguments of a call wrapped onto the next lines, not the statements after it", () => {
    expect(check("go-splices-variable")(go("fmt.Sprintf(\"SELECT * FROM t WHERE n = '%s' AND m = %d\","))).toBe(true);
    expect(check("go-splices-variable")(go('fmt.Sprintf("SELECT * FROM %s WHERE a = 1",'))).toBe(false);
  });

  it("has no opinion outside Go files", () => {
    expect(check("go-splices-variable")({ ...go('fmt.Sprintf("SELECT * FROM %s", table)'), path: "store.py" })).toBe(
      true,
    );
  });
});

describe("python-weak-cipher-module", () => {
  it("accepts weak cipher modules by name or import alias only", () => {
    const file =
      "from Crypto.Cipher import ARC4 as rc4\nfrom Crypto.Cipher import AES\nrc4.new(k)\nAES.new(k)\nDES.new(k)\n";
    expect(check("python-weak-cipher-module")(at(file, "rc4.new(k)", "rc4"))).toBe(true);
    expect(check("python-weak-cipher-module")(at(file, "DES.new(k)", "DES"))).toBe(true);
    expect(check("python-weak-cipher-module")(at(file, "AES.new(k)", "AES"))).toBe(false);
  });
});

describe("not-member-call", () => {
  it("rejects a method of another object, accepts plain and global calls", () => {
    const file = "model.eval(x); eval(y); window.eval(z);";
    expect(check("not-member-call")(at(file, "eval(x)"))).toBe(false);
    expect(check("not-member-call")(at(file, "eval(y)"))).toBe(true);
    expect(check("not-member-call")(at(file, "eval(z)"))).toBe(true);
  });
});

describe("discord-user-id", () => {
  it("accepts a token whose first segment is a base64 snowflake and rejects random look-alikes", () => {
    const id = Buffer.from("1010400992860572983").toString("base64url");
    const token = `${id}.GJMuHb.EL31IeL2HPcHyGcFRl1SPnXNYvMIHa-2o76umf`;
    expect(check("discord-user-id")(at(`TOKEN = "${token}"`, token))).toBe(true);
    const random = "Mx5xDRjRRBpWSdBdy60EZXqcv.ffldrA.APfsILdTZVTg1yssD3khkBZ51j4lB2KS5jPMgp";
    expect(check("discord-user-id")(at(`TOKEN = "${random}"`, random))).toBe(false);
    const notAnId = `${Buffer.from("0123456789012345678").toString("base64url")}.GJMuHb.EL31IeL2HPcHyGcFRl1SPnXNYvMIHa-2o76umf`;
    expect(check("discord-user-id")(at(`TOKEN = "${notAnId}"`, notAnId))).toBe(false);
  });
});

describe("js-child-process-receiver, shadowing", () => {
  it("follows the nearest declaration whose block encloses the call", () => {
    const file = [
      "var foo = require('child_process');",
      "function a() {",
      "  var foo = /hello/;",
      "  foo.exec(str);",
      "}",
      "function b() {",
      "  foo.exec(cmd);",
      "}",
    ].join("\n");
    expect(check("js-child-process-receiver")(at(file, "foo.exec(str)", "foo", "a.js"))).toBe(false);
    expect(check("js-child-process-receiver")(at(file, "foo.exec(cmd)", "foo", "a.js"))).toBe(true);
  });
});

describe("go-query-is-used", () => {
  const go = (body: string) => `package main\n\nfunc main() {\n${body}\n}\n`;
  it("rejects a query that is only printed, logged or discarded in its scope", () => {
    const file = go(
      '\tq := fmt.Sprintf("SELECT * FROM t WHERE a = \'%s\'", os.Args[1])\n\tfmt.Fprintf(os.Stderr, "%s\\n", q)\n\tlog.Printf("%s", q)\n\t_ = q',
    );
    expect(check("go-query-is-used")(at(file, "fmt.Sprintf(", "fmt.Sprintf(", "main.go"))).toBe(false);
  });
  it("accepts a query that is run, even after being printed", () => {
    const file = go(
      "\tq := fmt.Sprintf(\"SELECT * FROM t WHERE a = '%s'\", os.Args[1])\n\tfmt.Println(q)\n\tdb.Query(q)",
    );
    expect(check("go-query-is-used")(at(file, "fmt.Sprintf(", "fmt.Sprintf(", "main.go"))).toBe(true);
  });
  it("ends a shadowing declaration's scope with its block", () => {
    const file = go(
      '\tquery := "SELECT 1"\n\t{\n\t\tquery := "SELECT * FROM t WHERE a = "\n\t\tquery += os.Args[1]\n\t\t_ = query\n\t}\n\tdb.Query(query)',
    );
    expect(check("go-query-is-used")(at(file, "query += os.Args[1]", "query", "main.go"))).toBe(false);
  });
  it("keeps package-level names, statements without assignment and other languages", () => {
    const pkg = 'package main\n\nvar query = "SELECT * FROM t WHERE a = "\n\nfunc init() {\n\tquery += os.Args[1]\n}\n';
    expect(check("go-query-is-used")(at(pkg, "query += os.Args[1]", "query", "main.go"))).toBe(true);
    const direct = go('\trows, err := db.Query("SELECT * FROM t WHERE a = " + a)\n\t_, _ = rows, err');
    expect(check("go-query-is-used")(at(direct, '"SELECT', '"SELECT', "main.go"))).toBe(true);
    expect(check("go-query-is-used")(at('q = "SELECT " + a\nprint(q)\n', '"SELECT', '"SELECT', "a.py"))).toBe(true);
  });
});

describe("python-dynamic-argument", () => {
  const file = [
    "from django.utils.safestring import mark_safe",
    "GREETING = '<b>Hello</b>'",
    "pair, _ = ('<i>x</i>', '')",
    "html = '<p>{}</p>'.format(GREETING)",
    "html += ' <br>'",
    "def view(request, name):",
    "    label = '<b>{}</b>'.format(name)",
    "    a = mark_safe(html)",
    "    b = mark_safe(pair)",
    "    c = mark_safe(label)",
    "    d = mark_safe(name)",
    '    e = mark_safe(f"<b>{GREETING}</b>" + html)',
  ].join("\n");
  const arg = (call: string) => check("python-dynamic-argument")(at(file, call, call, "views.py"));
  it("rejects names the file only assigns string constants, through format and +=", () => {
    expect(arg("mark_safe(html)")).toBe(false);
    expect(arg("mark_safe(pair)")).toBe(false);
  });
  it("accepts parameters, names built from them and f-strings with fields", () => {
    expect(arg("mark_safe(label)")).toBe(true);
    expect(arg("mark_safe(name)")).toBe(true);
    expect(arg('mark_safe(f"')).toBe(true);
  });
});

describe("k8s-pod-setting-applies", () => {
  const pod = (containers: string) =>
    ["spec:", "  securityContext:", "    runAsUser: 0", "  containers:", containers].join("\n");
  const applies = (file: string) => check("k8s-pod-setting-applies")(at(file, "    runAsUser: 0"));
  it("rejects a pod-level setting every container overrides with a non-zero runAsUser", () => {
    expect(
      applies(
        pod(
          "  - name: a\n    securityContext:\n      runAsUser: 1000\n  - name: b\n    securityContext:\n      runAsUser: 1001\n",
        ),
      ),
    ).toBe(false);
  });
  it("accepts it when a container sets no user, and always in a container's own securityContext", () => {
    expect(
      applies(pod("  - name: a\n    securityContext:\n      runAsUser: 1000\n  - name: b\n    image: b:1\n")),
    ).toBe(true);
    const container = "spec:\n  containers:\n  - name: a\n    securityContext:\n      runAsUser: 0\n";
    expect(check("k8s-pod-setting-applies")(at(container, "      runAsUser: 0"))).toBe(true);
  });
});

describe("go-splices-variable, strings.Builder placeholders", () => {
  const go = (writes: string) =>
    `package main\n\nfunc f(db *sql.DB, order string) {\n\tvar ph strings.Builder\n${writes}\n\tplaceholders := ph.String()\n\tq := "SELECT * FROM t WHERE id IN (" + placeholders + ")"\n\tdb.Query(q)\n}\n`;
  const splices = (file: string) => check("go-splices-variable")(at(file, '"SELECT', '"SELECT', "main.go"));
  it("rejects a name built by a builder that is only written literals", () => {
    expect(splices(go('\tph.WriteString("?")\n\tph.WriteString(",")\n\tph.WriteByte(\'?\')'))).toBe(false);
  });
  it("accepts it when the builder is written a variable or handed to another function", () => {
    expect(splices(go("\tph.WriteString(order)"))).toBe(true);
    expect(splices(go('\tfmt.Fprintf(&ph, "%s", order)'))).toBe(true);
  });
});

describe("base64-pem-private-key", () => {
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  it("accepts base64 of a PEM block labelled as a private key, and nothing else", () => {
    for (const label of ["RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY"]) {
      const secret = b64(`-----BEGIN ${label}-----\nMIIEowIBAAKCAQEAtWPns8x\n`);
      expect(check("base64-pem-private-key")(at(secret, secret))).toBe(true);
    }
    const certificate = b64("-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqh\n");
    expect(check("base64-pem-private-key")(at(certificate, certificate))).toBe(false);
    const publicKey = b64("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOC\n");
    expect(check("base64-pem-private-key")(at(publicKey, publicKey))).toBe(false);
  });
});

describe("mapbox-token-payload", () => {
  it("accepts sk.<base64url JSON object>.<signature>, and refuses a payload that is not JSON", () => {
    const payload = Buffer.from(JSON.stringify({ u: "acme-maps", a: "clx4m2q8v0k3p7r9" })).toString("base64url");
    const token = `sk.${payload}.Hq7vR2xLp9TmKw3zYb8Nc6`;
    expect(check("mapbox-token-payload")(at(token, token))).toBe(true);
    const text = `sk.${Buffer.from("not json at all").toString("base64url")}.Hq7vR2xLp9TmKw3zYb8Nc6`;
    expect(check("mapbox-token-payload")(at(text, text))).toBe(false);
    expect(check("mapbox-token-payload")(at("sk.", "sk."))).toBe(false);
  });
});
