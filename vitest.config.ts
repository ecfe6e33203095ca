import { defineConfig } from "vitest/config";

// One command for local runs and merged coverage; CI runs `turbo run test` per package for caching.
export default defineConfig({
  test: {
    projects: ["packages/*", "tools/*"],
    coverage: { provider: "v8", include: ["packages/*/src/**"] },
  },
});
