import { defineConfig } from "vitest/config";

// Only on a Windows runner (.github/workflows/windows.yml, server-pipes job): real named pipes.
export default defineConfig({
  test: {
    name: "server-windows",
    include: ["test-windows/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
