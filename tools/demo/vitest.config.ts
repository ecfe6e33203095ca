import { defineProject } from "vitest/config";
import { sharedTest } from "../../vitest.shared.js";

export default defineProject({
  test: { ...sharedTest, name: "demo", include: ["test/**/*.test.ts"] },
});
