import { defineConfig } from "vitest/config";

// Only through `pnpm test:win32` (tools/wine/run.mjs): the built server in Windows Node under Wine.
export default defineConfig({
  test: {
    name: "server-wine",
    include: ["test-wine/**/*.test.ts"],
    // One Wine prefix, one set of pipe names: the files run one after the other.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
