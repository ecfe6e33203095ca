import { defineProject } from "vitest/config";
import { sharedTest } from "../../vitest.shared.js";

export default defineProject({
  test: { ...sharedTest, name: "winsim", include: ["test/**/*.test.ts"] },
});
