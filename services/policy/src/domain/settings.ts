// Policy settings: each built-in declares a strict zod object whose keys all have defaults;
// organizations store only the keys they changed. Custom policies have no settings.
import type { FieldError } from "@verdict/kit";
import { z } from "zod";

export type SettingsSchema = z.ZodObject;

export const NO_SETTINGS: SettingsSchema = z.strictObject({});

/**
 * The settings a policy runs with: defaults merged with the stored overrides. Stored keys the
 * schema no longer knows (a setting removed in a later release) are ignored, not fatal.
 */
export function effectiveSettings(
  schema: SettingsSchema,
  stored: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (Object.hasOwn(schema.shape, key) && value !== null && value !== undefined) known[key] = value;
  }
  const parsed = schema.safeParse(known);
  // A stored value that no longer fits (a setting whose type changed) falls back to defaults.
  return parsed.success ? parsed.data : schema.parse({});
}

/**
 * Checks a settings patch from UpdatePolicy. A null value resets that key to its default.
 * Field paths are `settings.<key>` so the REST layer can point at the offending key.
 */
export function checkSettingsPatch(
  policyId: string,
  schema: SettingsSchema,
  patch: Record<string, unknown>,
): FieldError[] {
  const problems: FieldError[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const field = `settings.${key}`;
    // Own keys only: `constructor` or `toString` are no settings, whatever Object.prototype says.
    const setting = Object.hasOwn(schema.shape, key) ? (schema.shape[key] as z.ZodType) : undefined;
    if (!setting) {
      const known = Object.keys(schema.shape);
      problems.push({
        field,
        code: "INVALID_FORMAT",
        message: `Unknown setting '${key}' for policy '${policyId}'${known.length ? ` (known settings: ${known.join(", ")})` : " (this policy has no settings)"}`,
      });
      continue;
    }
    if (value === null) continue;
    const result = setting.safeParse(value);
    if (!result.success) {
      problems.push({
        field,
        code: "INVALID_FORMAT",
        message: `Invalid value for setting '${key}': ${result.error.issues[0]?.message ?? "invalid"}`,
      });
    }
  }
  return problems;
}

/**
 * The effective settings once a checked patch is applied: its values replace the current ones, a
 * null resets the key to its default (what an update will store, known before it is written).
 */
export function settingsAfterPatch(
  schema: SettingsSchema,
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return effectiveSettings(schema, next);
}
