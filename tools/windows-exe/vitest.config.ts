import { defineProject } from "vitest/config";
import { sharedTest } from "../../vitest.shared.js";

export default defineProject({
  test: { ...sharedTest, name: "windows-exe", include: ["test/**/*.test.ts"] },
});
