import {
  type BuiltinPolicy,
  builtinSettings,
  CONFIGURATION_CATEGORY,
  CONFIGURATION_FRAMEWORKS,
  docs,
  EVERY_RULE,
  paths,
} from "./types.js";
import { PHP_DEBUG } from "./phpRules.js";

// Production configuration: base/production settings modules, production env files.
const DJANGO_SETTINGS = [
  String.raw`(?i)(?:^|/)settings\.py$`,
  String.raw`(?i)(?:^|/)settings/(?:__init__|base|common|prod|production|live)\.py$`,
  String.raw`(?i)(?:^|/)(?:prod|production)_settings\.py$`,
];
const PRODUCTION_DOTENV = [String.raw`(?i)(?:^|/)\.env(?:\.(?:prod|production|staging))?$`];

export const debugModeEnabled: BuiltinPolicy = {
  id: "debug-mode-enabled",
  name: "Debug mode in production configuration",
  description:
    "Detects framework debug modes switched on in production configuration, which expose stack traces, settings and often an interactive console: Django DEBUG = True, Flask debug=True / FLASK_DEBUG, Laravel APP_DEBUG=true and 'debug' => true in config/app.php, phpinfo() left in PHP code, Rails consider_all_requests_local, PHP display_errors, Spring include-stacktrace=always, ASP.NET customErrors Off and NODE_ENV=development in images.",
  severity: "warning",
  enabled: true,
  category: CONFIGURATION_CATEGORY,
  frameworks: [
    ...CONFIGURATION_FRAMEWORKS,
    "nist-ssdf:PW.9.2",
    "owasp-asvs:V14.3.2",
    "cwe:CWE-489",
    "cwe:CWE-215",
    "cwe-top-25:CWE-200",
    "owasp-api-top-10:API8",
    "cis-controls:4.8",
    "pci-dss:2.2.4",
    "nist-800-53:SI-11",
    "fedramp-moderate:SI-11",
    "nist-800-171:3.4.6",
    "cmmc:CM.L2-3.4.6",
    "eu-cra:I(2)(j)",
  ],
  patterns: [
    {
      id: "django-debug-true",
      type: "regex",
      value: String.raw`^[ \t]*DEBUG[ \t]*=[ \t]*True\b`,
      message: "Django DEBUG = True in a production settings module",
      paths: DJANGO_SETTINGS,
    },
    {
      id: "flask-debug-run",
      type: "regex",
      value: String.raw`(?:\b(?:app|application|flask_app|server|api|web)|\bcreate_app[ \t]*\([^()\n]*\))\.run[ \t]*\((?:[^()]|\([^()]*\))*\bdebug[ \t]*=[ \t]*True\b`,
      message: "app.run(debug=True) enables the Werkzeug debugger, which allows remote code execution",
      paths: paths("python"),
    },
    {
      id: "flask-debug-env",
      type: "regex",
      value: String.raw`(?i)\bFLASK_(?:DEBUG["']?(?:[ \t]*[=:][ \t]*|[ \t]+)["']?(?:1|true|on|yes)\b|ENV["']?(?:[ \t]*[=:][ \t]*|[ \t]+)["']?development\b)`,
      message: "FLASK_DEBUG / FLASK_ENV=development enables the Werkzeug debugger",
      paths: [...PRODUCTION_DOTENV, ...paths("dockerfile", "yaml")],
    },
    {
      id: "laravel-app-debug",
      type: "regex",
      value: String.raw`(?i)^[ \t]*APP_DEBUG[ \t]*=[ \t]*["']?true\b`,
      message: "APP_DEBUG=true shows stack traces and environment values to visitors",
      paths: PRODUCTION_DOTENV,
    },
    {
      id: "rails-consider-all-requests-local",
      type: "regex",
      value: String.raw`\bconfig\.consider_all_requests_local[ \t]*=[ \t]*true\b`,
      message: "consider_all_requests_local = true shows full error reports to every visitor",
      paths: [String.raw`(?i)(?:^|/)config/environments/(?:production|staging)\.rb$`],
    },
    {
      id: "php-display-errors",
      type: "regex",
      value: String.raw`(?i)\bini_set[ \t]*\([ \t]*["']display_errors["'][ \t]*,[ \t]*["']?(?:1|on|true)["']?[ \t]*\)|^[ \t]*display_errors[ \t]*=[ \t]*(?:on|1|true)\b`,
      message: "display_errors shows PHP errors (paths, queries, values) to visitors",
      paths: [...paths("php"), String.raw`(?i)(?:^|/)(?:php|\.user)\.ini$`],
    },
    {
      id: "spring-stacktrace-exposed",
      type: "regex",
      value: String.raw`(?i)\b(?:server\.error\.)?include-(?:stacktrace|exception|message)[ \t]*[=:][ \t]*["']?(?:always|true)\b`,
      message: "Spring error responses include stack traces or exception details",
      paths: [String.raw`(?i)(?:^|/)application[^/]*\.(?:properties|ya?ml)$`],
    },
    {
      id: "aspnet-custom-errors-off",
      type: "regex",
      value: String.raw`(?i)<customErrors[ \t]+[^>]*\bmode[ \t]*=[ \t]*["']Off["']|<compilation[ \t]+[^>]*\bdebug[ \t]*=[ \t]*["']true["']`,
      message: "ASP.NET detailed errors or debug compilation enabled",
      paths: [String.raw`(?i)(?:^|/)web(?:\.release)?\.config$`],
    },
    {
      id: "dockerfile-node-env-development",
      type: "regex",
      value: String.raw`(?i)^[ \t]*ENV[ \t]+(?:[\w.-]+=\S+[ \t]+)*NODE_ENV(?:[ \t]*=[ \t]*|[ \t]+)["']?development\b`,
      message: "NODE_ENV=development in an image enables development-only behaviour (verbose errors, no caching)",
      paths: paths("dockerfile"),
    },
    ...PHP_DEBUG,
  ],
  suggestions: [
    "Keep debug off in every deployed configuration and switch it on only in local, untracked settings (DEBUG from an environment variable defaulting to False, APP_DEBUG=false, FLASK_DEBUG unset, production.rb with consider_all_requests_local = false).",
  ],
  claims: {
    cwe: { "CWE-489": EVERY_RULE, "CWE-215": EVERY_RULE, "CWE-200": EVERY_RULE },
    languages: ["python", "php", "ruby", "dotenv", "dockerfile", "php-ini", "spring-config", "asp-net-config"],
  },
  documentation_url: docs("debug-mode-enabled"),
  settings: builtinSettings(),
};
