import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { exampleDocuments, extractExamples } from "../src/examples.js";
import { run } from "../src/run.js";

// Every ```ts block of the package READMEs and docs/guides compiles under `strict`, against the
// built workspace packages. Convention: each block is a module of its own, so a block that uses
// something an earlier block made (a `disk`, a `shell`) declares it at its top, e.g.
// `declare const disk: Disk;`, visibly to the reader. Blocks in other languages are not checked.
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
// Inside tools/consumer, so `@csi-proxy/*` resolve through its node_modules to the workspace.
const dir = join(here, "..", ".examples");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("documentation examples", () => {
  const examples = extractExamples(repo, exampleDocuments(repo));

  it("finds the examples of every package README", () => {
    const readmes = new Set(examples.map((e) => e.origin.split(":")[0]));
    for (const group of ["exec", "disk", "volume", "filesystem", "smb", "iscsi", "system"]) {
      expect(readmes).toContain(`packages/${group}/README.md`);
    }
  });

  it("compile under strict with the repository's TypeScript", async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const example of examples) writeFileSync(join(dir, example.file), example.code);
    const compilerOptions = {
      strict: true,
      target: "es2022",
      lib: ["es2023"],
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      noEmit: true,
      skipDefaultLibCheck: true,
    };
    const files = examples.map((e) => e.file);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const origins = new Map(examples.map((e) => [e.file, e.origin]));
    try {
      await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir });
    } catch (error) {
      // Name the document and line of each failing block, not the temporary file.
      const text = String(error).replace(/[\w-]+\.ts(?=\(\d+)/g, (f) => origins.get(f) ?? f);
      expect.fail(text);
    }
  });
});
