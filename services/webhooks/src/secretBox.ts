// Moved to @verdict/kit (the identity service seals TOTP seeds the same way).
export { MASTER_KEY_BYTES, parseMasterKey, SecretBox } from "@verdict/kit";
