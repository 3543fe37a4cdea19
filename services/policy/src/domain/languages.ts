// The languages and file formats a policy may claim to run on: a leaf module, so that a policy
// (policy.ts) and the built-in definitions (builtins/) can both use them without importing each
// other.
/**
 * The languages and file formats a policy may claim to run on, each with the file names it covers
 * (what a fixture's name must match to back the claim).
 */
export const LANGUAGES = {
  python: /\.pyw?$/i,
  javascript: /\.(?:[cm]?jsx?|vue|svelte|html?|ejs|hbs)$/i,
  typescript: /\.[cm]?tsx?$/i,
  java: /\.java$/i,
  kotlin: /\.kts?$/i,
  go: /\.go$/i,
  ruby: /\.(?:rb|rake|erb)$/i,
  php: /\.(?:php[0-9]?|phtml)$/i,
  csharp: /\.(?:cs|cshtml|razor)$/i,
  shell: /\.(?:sh|bash|zsh)$/i,
  dockerfile: /(?:^|\/)(?:Dockerfile[^/]*|[^/]*\.dockerfile)$/i,
  kubernetes: /\.ya?ml$/i,
  "docker-compose": /(?:^|\/)(?:docker-)?compose[^/]*\.ya?ml$/i,
  "github-actions": /(?:^|\/)(?:\.github\/workflows\/[^/]+|action)\.ya?ml$/i,
  terraform: /\.tf$/i,
  "gitlab-ci": /(?:^|\/)(?:[^/]*\.)?gitlab-ci\.ya?ml$|(?:^|\/)\.gitlab\/ci\/.+\.ya?ml$/i,
  "spring-config": /(?:^|\/)(?:application|bootstrap)[^/]*\.(?:properties|ya?ml)$/i,
  "php-ini": /(?:^|\/)php\.ini$/i,
  "asp-net-config": /(?:^|\/)web\.config$/i,
  nginx: /\.conf$/i,
  yaml: /\.ya?ml$/i,
  json: /\.json[c5]?$/i,
  dotenv: /(?:^|\/)\.env(?:\.[^/]*)?$/i,
} as const;

export type Language = keyof typeof LANGUAGES;

/** The file names of these languages as RE2 patterns on the path (LANGUAGES are case-insensitive). */
export function languagePaths(languages: readonly Language[]): string[] {
  return languages.map((l) => `(?i)${LANGUAGES[l].source}`);
}
