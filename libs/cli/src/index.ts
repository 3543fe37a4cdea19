export { buildProgram } from "./program.js";
export { Context } from "./context.js";
export { toSarif } from "./format/sarif.js";
