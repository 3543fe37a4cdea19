import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Policy fixtures are deliberately insecure sample code in many languages, not project code.
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      ".tools/**",
      // Test tools' venvs made in a worktree's own folder (never through its .tools link).
      ".tools-live/**",
      "libs/proto/src/gen/**",
      "data/**",
      "coverage/**",
      "services/policy/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-function-type": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-console": "error",
    },
  },
);
