// The operator's reference of the configuration variables (docs/configuration.md), generated from
// the schemas: each owner documents the variables it declares beside them (documentVariables in
// its config.ts), the defaults are read from the schemas themselves, and renderVariableTable
// writes the table. services/all-in-one/src/configDoc.ts assembles the document.
import type { z } from "zod";

/** What a variable is for; `default` only where the schema's default is not the documented one (e.g. it depends on the machine). */
export interface VariableDoc {
  meaning: string;
  default?: string;
}

const documented = new Map<string, VariableDoc>();

/** Records the meaning of the variables an owner declares; a variable is documented by one owner only. */
export function documentVariables(docs: Record<string, string | VariableDoc>): void {
  for (const [name, doc] of Object.entries(docs)) {
    if (documented.has(name)) throw new Error(`${name} is documented twice`);
    documented.set(name, typeof doc === "string" ? { meaning: doc } : doc);
  }
}

/** Every documented variable's documentation, by name. */
export function variableDocs(): ReadonlyMap<string, VariableDoc> {
  return documented;
}

/** The default a schema gives a variable when it is unset, as the table shows it. */
export function defaultOf(field: z.ZodType): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return "required";
  const value: unknown = parsed.data;
  if (value === undefined) return "unset";
  if (value === "") return "empty";
  return `\`${Array.isArray(value) ? value.join(",") : String(value)}\``;
}

/** A markdown table of a schema's variables (name, default, meaning), in the schema's order. */
export function renderVariableTable(schema: z.ZodObject, names: readonly string[] = Object.keys(schema.shape)): string {
  const rows = names.map((name) => {
    const doc = documented.get(name);
    if (!doc) throw new Error(`${name} is not documented: add it to documentVariables beside its schema`);
    const field = schema.shape[name] as z.ZodType;
    return `| \`${name}\` | ${doc.default ?? defaultOf(field)} | ${doc.meaning} |`;
  });
  return ["| Variable | Default | Meaning |", "|---|---|---|", ...rows].join("\n");
}
