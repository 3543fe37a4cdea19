// PHP rules of the configuration policies, spread into their policy's patterns. From PHP's manual
// (phpinfo() "outputs a large amount of information about the current state of PHP": paths,
// environment, configuration) and Laravel's configuration docs (`app.debug`: "detailed error
// messages with stack traces will be shown on every error"; never true in production).
import { type BuiltinPattern, structural } from "./types.js";

export const PHP_DEBUG: BuiltinPattern[] = [
  {
    id: "php-phpinfo",
    type: "structural",
    value: structural(["php"], {
      kind: "function_call_expression",
      has: { field: "function", regex: String.raw`(?i)^\\?phpinfo$` },
    }),
    message: "phpinfo() shows the server's configuration, paths and environment to whoever requests the page",
    keywords: ["phpinfo"],
  },
  {
    id: "laravel-config-debug",
    type: "regex",
    // Laravel's 'app.debug' set to true (config(['app.debug' => true])), or config/app.php's
    // 'debug' set to true or defaulting to true when APP_DEBUG is unset.
    value: String.raw`(?i)["']app\.debug["'][ \t]*=>[ \t]*true\b|^[ \t]*["']debug["'][ \t]*=>[ \t]*(?:true\b|(?:\(bool\)[ \t]*)?env[ \t]*\([ \t]*["']APP_DEBUG["'][ \t]*,[ \t]*true\b)`,
    message: "Laravel debug mode shows stack traces and environment values to visitors",
    paths: [String.raw`(?i)\.php$`],
    // A Laravel configuration: it reads APP_ variables, or names app.debug.
    file_requires: [String.raw`\benv[ \t]*\([ \t]*["']APP_|["']app\.debug["']`],
  },
];
