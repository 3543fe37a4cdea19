// Types of scripts/rest-gen.mjs for the tests that import it.
/** buf's image of proto/ (or of `dir`), as JSON. */
export function descriptorSet(dir?: string): { file: unknown[] };
/** Every generated file of the gateway's REST surface, by name (before formatting). */
export function generateAll(set?: { file: unknown[] }): Map<string, string>;
