import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** One ```ts block of a README or guide, written to its own module. */
export interface Example {
  /** Where the block is, e.g. `packages/disk/README.md:21`, for failure messages. */
  readonly origin: string;
  /** The module's file name in the temporary project. */
  readonly file: string;
  readonly code: string;
}

/** The documents whose examples must compile: every package README and every guide. */
export function exampleDocuments(repo: string): string[] {
  const readmes = readdirSync(join(repo, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(repo, "packages", entry.name, "README.md"));
  const guides = readdirSync(join(repo, "docs", "guides"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(repo, "docs", "guides", name));
  return [...readmes, ...guides].filter((path) => existsSync(path));
}

/** Every ```ts block of the documents; each becomes a module of its own. */
export function extractExamples(repo: string, documents: readonly string[]): Example[] {
  const examples: Example[] = [];
  for (const path of documents) {
    const lines = readFileSync(path, "utf8").split("\n");
    const name = relative(repo, path).replace(/[^A-Za-z0-9]+/g, "-");
    let start = -1;
    for (const [index, line] of lines.entries()) {
      if (start < 0 && /^```ts\s*$/.test(line)) start = index + 1;
      else if (start >= 0 && /^```\s*$/.test(line)) {
        // `export {}` makes a block without imports a module too, so blocks never share names.
        const code = `${contextOf(lines, start - 1)}${lines.slice(start, index).join("\n")}\nexport {};\n`;
        examples.push({
          origin: `${relative(repo, path)}:${start}`,
          file: `${name}-${start}.ts`,
          code,
        });
        start = -1;
      }
    }
  }
  return examples;
}

/**
 * The hidden context of the block whose fence is at `fence`: the `<!-- example-context: … -->`
 * comments right above it (declarations of what earlier blocks made), on the block's first line
 * so compiler positions stay the block's own.
 */
function contextOf(lines: readonly string[], fence: number): string {
  const context: string[] = [];
  for (let index = fence - 1; index >= 0; index--) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue; // prettier puts a blank line between comment and fence
    const match = /^<!-- example-context: (.*) -->$/.exec(line);
    if (match === null) break;
    context.unshift(match[1] ?? "");
  }
  return context.join(" ");
}
