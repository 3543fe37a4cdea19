// Path traversal (CWE-22): request input reaching the name of a file the program opens, writes
// or deletes (OWASP's Path Traversal page and Input Validation Cheat Sheet: a file name taken from
// a request may hold `../` or an absolute path and reach any file the process can).
import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  firstArgument,
  INJECTION_FRAMEWORKS,
  JS_REQUEST_KEYWORDS,
  JS_REQUEST_SOURCES,
  JS_SANITIZERS,
  PY_REQUEST_KEYWORDS,
  PY_REQUEST_SOURCES,
  PY_SANITIZERS,
  SECURITY_CATEGORY,
  structural,
} from "./types.js";
import { goCall, GO_PATH_GUARDS, GO_PATH_SANITIZERS, GO_REQUEST_KEYWORDS, GO_REQUEST_SOURCES } from "./goFlow.js";
import { PY_ALLOWLIST_GUARDS } from "./pythonGuards.js";
import { JAVA_REQUEST_KEYWORDS, JAVA_REQUEST_SOURCES, javaSanitizers } from "./javaFlow.js";

// What leaves no directory in a name: a number parsed from it, the last segment of a path.
const JAVA_PATH_SANITIZERS = javaSanitizers("getName|getBaseName");
const PY_PATH_SANITIZERS = [
  ...PY_SANITIZERS,
  {
    kind: "call",
    has: {
      field: "function",
      regex: String.raw`^(?:os\.path\.basename|secure_filename|werkzeug\.utils\.secure_filename)$`,
    },
  },
];
const JS_PATH_SANITIZERS = [
  ...JS_SANITIZERS,
  {
    kind: "call_expression",
    has: { field: "function", regex: String.raw`^(?:path\.basename|basename|sanitizeFilename|sanitize)$` },
  },
];

// java.io classes whose constructor names a file, and java.nio.file's path factories and file operations.
const JAVA_FILE_CLASSES = String.raw`^(?:java\.io\.)?(?:File|FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile)$`;
const JAVA_NIO = String.raw`^(?:java\.nio\.file\.)?(?:Paths|Path|Files)$`;
const JAVA_NIO_METHODS = String.raw`^(?:get|of|newInputStream|newOutputStream|newBufferedReader|newBufferedWriter|readAllBytes|readAllLines|readString|lines|write|writeString|delete|deleteIfExists|copy|move|createFile|createDirectories|newByteChannel)$`;

const PY_FILE_CALLS = [
  "open",
  "io.open",
  "codecs.open",
  "os.open",
  "os.remove",
  "os.unlink",
  "os.rmdir",
  "os.listdir",
  "shutil.rmtree",
  "shutil.copyfile",
  "shutil.copy",
  "shutil.copy2",
  "shutil.copymode",
  "shutil.copystat",
  "shutil.copytree",
  "shutil.move",
  "shutil.chown",
  "os.rename",
  "os.replace",
  // Flask's docs: send_from_directory's directory "must not be a value provided by the client"
  // (the file name, second, is kept inside it).
  "send_from_directory",
  "flask.send_from_directory",
  "pathlib.Path",
  "Path",
  "send_file",
  "flask.send_file",
  "FileResponse",
];
const JS_FILE_CALLS = [
  "readFile",
  "readFileSync",
  "writeFile",
  "writeFileSync",
  "appendFile",
  "appendFileSync",
  "createReadStream",
  "createWriteStream",
  "unlink",
  "unlinkSync",
  "rm",
  "rmSync",
  "readdir",
  "readdirSync",
].flatMap((m) => [`fs.${m}`, `fs.promises.${m}`, `fsp.${m}`]);
const GO_FILE_CALLS = [
  ...["Open", "OpenFile", "ReadFile", "Create", "Remove", "RemoveAll", "WriteFile", "ReadDir", "Mkdir", "MkdirAll"].map(
    (f) => `os.${f}`,
  ),
  ...["ReadFile", "WriteFile", "ReadDir"].map((f) => `ioutil.${f}`),
];
const JS_SEND_CALLS = ["res.sendFile", "res.download", "response.sendFile", "response.download"];

export const pathTraversal: BuiltinPolicy = {
  id: "path-traversal",
  name: "Path traversal",
  description:
    "Detects file names taken from request input: servlet request input reaching new File, FileInputStream, FileOutputStream, FileReader, FileWriter or RandomAccessFile, or java.nio's Paths.get / Path.of / Files operations within the method (Java: through assignments, collections, builders and the file's own methods; not through a parse to a number or getName); Flask, Django and DRF request input reaching open, os/shutil file operations, pathlib.Path or send_file within the function, not through os.path.basename or secure_filename (Python); Express request input reaching fs file operations, res.sendFile or res.download, not through path.basename (JavaScript, TypeScript); net/http, mux, chi, gin or echo request input reaching os or ioutil file operations (Open, OpenFile, ReadFile, Create, Remove, RemoveAll, WriteFile, ReadDir, Mkdir, MkdirAll) or http.ServeFile / ServeFileFS within the function, not through filepath.Base, path.Base, filepath.Clean of the name rooted at /, strings.ReplaceAll of .. with nothing, or a number parsed from it, nor inside a check that it holds no .. element (strings.Contains, a regexp of two escaped dots, filepath.IsLocal) or that a normalized path keeps its prefix (Go).",
  severity: "error",
  enabled: true,
  category: SECURITY_CATEGORY,
  frameworks: [...INJECTION_FRAMEWORKS, "owasp-asvs:V12.3.1", "owasp-top-10:A01", "cwe:CWE-22", "cwe-top-25:CWE-22"],
  patterns: [
    {
      id: "java-file-path-from-request",
      type: "structural",
      value: structural(
        ["java"],
        {
          any: [{ pattern: "new $T($$$ARGS)" }, { pattern: "$NIO.$OP($$$ARGS)" }],
        },
        { T: { regex: JAVA_FILE_CLASSES }, NIO: { regex: JAVA_NIO }, OP: { regex: JAVA_NIO_METHODS } },
        { sink: "$$$ARGS", sources: JAVA_REQUEST_SOURCES, sanitizers: JAVA_PATH_SANITIZERS },
      ),
      message: "A file name is built from request input (it reaches the file operation within the method)",
      keywords: JAVA_REQUEST_KEYWORDS,
      file_requires: [
        String.raw`\bnew\s+(?:java\.io\.)?(?:File|FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile)\s*\(|\b(?:Paths|Path|Files)\.\w+\s*\(`,
      ],
    },
    {
      id: "python-file-path-from-request",
      type: "structural",
      value: structural(["python"], { any: firstArgument(PY_FILE_CALLS, "P") }, undefined, {
        sink: "P",
        sources: PY_REQUEST_SOURCES,
        sanitizers: PY_PATH_SANITIZERS,
        guards: PY_ALLOWLIST_GUARDS,
      }),
      message: "A file name is built from request input (it reaches the file operation within the function)",
      keywords: PY_REQUEST_KEYWORDS,
      file_requires: [
        String.raw`\b(?:open|remove|unlink|rmdir|listdir|rmtree|copyfile|copy|Path|send_file|FileResponse)\s*\(`,
      ],
    },
    {
      id: "js-file-path-from-request",
      type: "structural",
      value: structural(
        ["javascript", "typescript", "tsx"],
        { any: firstArgument([...JS_FILE_CALLS, ...JS_SEND_CALLS], "P") },
        undefined,
        { sink: "P", sources: JS_REQUEST_SOURCES, sanitizers: JS_PATH_SANITIZERS },
      ),
      message: "A file name is built from request input (it reaches the file operation within the function)",
      keywords: JS_REQUEST_KEYWORDS,
      file_requires: [String.raw`\b(?:fsp?|promises)\.\w+\s*\(|\.(?:sendFile|download)\s*\(`],
    },
    {
      id: "go-file-path-from-request",
      type: "structural",
      value: structural(
        ["go"],
        {
          any: [
            ...firstArgument(GO_FILE_CALLS, "P"),
            { pattern: "http.ServeFile($W, $R, $P)" },
            // Its docs: a name "constructed from user input … should be sanitized before calling ServeFileFS".
            { pattern: "http.ServeFileFS($W, $R, $FS, $P)" },
          ].map((r) => goCall(r.pattern)),
        },
        undefined,
        { sink: "P", sources: GO_REQUEST_SOURCES, sanitizers: GO_PATH_SANITIZERS, guards: GO_PATH_GUARDS },
      ),
      message: "A file name is built from request input (it reaches the file operation within the function)",
      keywords: GO_REQUEST_KEYWORDS,
      file_requires: [
        String.raw`\b(?:os|ioutil)\.(?:Open|OpenFile|ReadFile|Create|Remove|RemoveAll|WriteFile|ReadDir|Mkdir|MkdirAll)\s*\(|\bhttp\.ServeFile(?:FS)?\s*\(`,
      ],
    },
  ],
  suggestions: [
    "Do not build file names from request input: map the input to a name you choose (an id in a table), or keep only its last segment (getName, os.path.basename, secure_filename, path.basename, filepath.Base), resolve the full path and check it stays under the intended directory before opening it.",
  ],
  claims: {
    cwe: {
      "CWE-22": [
        "java-file-path-from-request",
        "python-file-path-from-request",
        "js-file-path-from-request",
        "go-file-path-from-request",
      ],
    },
    languages: ["go", "java", "javascript", "python", "typescript"],
  },
  documentation_url: docs("path-traversal"),
  settings: builtinSettings(),
};
