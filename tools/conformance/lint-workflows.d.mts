/** One finding of actionlint, or of action-validator (kind "schema"). */
export interface WorkflowFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly kind: string;
}
export declare const newerRunnerLabels: readonly string[];
export declare function validateWorkflowSchema(text: string, path: string): WorkflowFinding[];
export declare function lintWorkflow(text: string, path: string): Promise<WorkflowFinding[]>;
export declare function lintWorkflows(
  dir: string,
): Promise<{ files: string[]; findings: WorkflowFinding[] }>;
