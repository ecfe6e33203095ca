import { defineConfig } from "vitest/config";

// Each test starts PowerShell 7 against its own simulated host: allow for a slow CI machine.
export default defineConfig({ test: { testTimeout: 180_000, hookTimeout: 180_000 } });
