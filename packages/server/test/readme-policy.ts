import { readFileSync } from "node:fs";

/** A policy the README prints after `<!-- <marker> -->`, as printed: the tests run what it shows. */
export function readmePolicy(marker: string): { version: 1; rules: Record<string, unknown>[] } {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const block = new RegExp(`<!-- ${marker} -->\\s*\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (block?.[1] === undefined) throw new Error(`README: no ${marker} example`);
  return JSON.parse(block[1]) as { version: 1; rules: Record<string, unknown>[] };
}
