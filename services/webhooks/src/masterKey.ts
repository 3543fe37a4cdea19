// Moved to @verdict/kit (the identity service derives its own subkey from the same master key).
export { MASTER_KEY_FILE, resolveMasterKey } from "@verdict/kit";
