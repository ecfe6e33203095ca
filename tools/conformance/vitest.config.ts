import { defineConfig } from "vitest/config";
import { sharedTest } from "../../vitest.shared.js";
import { resultsDir } from "./src/results.js";

// defineConfig, not defineProject: reporters are a run-level option. JUnit goes next to the
// call log for CI to upload; the default reporter still prints.
export default defineConfig({
  test: {
    ...sharedTest,
    name: "conformance",
    include: ["test/**/*.test.ts"],
    reporters: ["default", "junit"],
    outputFile: { junit: `${resultsDir()}/junit.xml` },
  },
});
