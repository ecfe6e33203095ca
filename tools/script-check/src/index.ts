export { windowsPowerShellProblems } from "./syntax.js";
export { inspectScript } from "./inspect.js";
export type {
  SyntaxProblem,
  ScriptInventory,
  UsedCommand,
  UsedParameter,
  EnvRead,
} from "./inspect.js";
export { checkScript } from "./check-script.js";
export type { CheckOptions, ScriptProblem } from "./check-script.js";
export { checkSetupScripts } from "./setup-scripts.js";
export type { SetupScriptReport } from "./setup-scripts.js";
export { setupCmdlets, setupCommand } from "./setup-commands.js";
export type { SetupCmdlet, SetupCmdletTable } from "./setup-commands.js";
export { allowedCommand } from "./commands.js";
export type { AllowedCommand } from "./commands.js";
export { resolveParameter } from "./parameters.js";
export type { ParameterMatch } from "./parameters.js";
export { windowsCmdlets, commonCommands } from "./signatures.js";
export type {
  CmdletSignature,
  ParameterSignature,
  ParameterName,
  WindowsCmdletTable,
  CommonCommand,
  CommonCommandTable,
} from "./signatures.js";
export { checkSimulatorModule } from "./simulator.js";
export type { SimulatorProblem, SimulatorReport } from "./simulator.js";
export { describeModule } from "./describe-module.js";
export type { DeclaredFunction, DeclaredSetParameter } from "./describe-module.js";
