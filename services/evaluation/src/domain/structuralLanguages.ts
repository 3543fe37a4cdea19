// The languages structural rules are written for (@verdict/structural, shared with the policy
// service): a leaf module, so that the structural matcher and the flow analysis it runs can both
// name them without importing each other.
export { STRUCTURAL_LANGUAGES, type StructuralLanguage } from "@verdict/structural";
