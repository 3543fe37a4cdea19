// Token shapes several providers document for their credentials (RE2).
export const HEX32 = "[a-f0-9]{32}";
export const HEX40 = "[a-f0-9]{40}";
export const HEX64 = "[a-f0-9]{64}";
/** A UUID as providers print it (lower-case hexadecimal, 8-4-4-4-12). */
export const UUID = "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}";
export const alnum = (n: number | string) => `[A-Za-z0-9]{${n}}`;
