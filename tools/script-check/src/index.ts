export { windowsPowerShellProblems } from "./syntax.js";
export type { SyntaxProblem } from "./syntax.js";
