// The languages structural rules are written for: a leaf module, so that the structural matcher
// and the flow analysis it runs can both name them without importing each other.
export const STRUCTURAL_LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "java",
  "go",
  "ruby",
  "php",
  "csharp",
  "kotlin",
] as const;
export type StructuralLanguage = (typeof STRUCTURAL_LANGUAGES)[number];
