import type { ViteUserConfig } from "vitest/config";

/** Test options every package shares; each package config spreads this into `defineProject`. */
export const sharedTest = {
  restoreMocks: true,
  clearMocks: true,
  unstubEnvs: true,
  // Hang guards, not speed bounds (speed is `pnpm bench`'s job): a spawn-mode suite starts one
  // PowerShell per call, which on a loaded two-core CI runner can take many seconds each.
  testTimeout: 180_000,
  hookTimeout: 180_000,
} satisfies NonNullable<ViteUserConfig["test"]>;
