import type { ViteUserConfig } from "vitest/config";

/** Test options every package shares; each package config spreads this into `defineProject`. */
export const sharedTest = {
  restoreMocks: true,
  clearMocks: true,
  unstubEnvs: true,
  testTimeout: 60_000,
  hookTimeout: 120_000,
} satisfies NonNullable<ViteUserConfig["test"]>;
