import { defineProject } from "vitest/config";
import { sharedTest } from "../../vitest.shared.js";

export default defineProject({
  test: {
    ...sharedTest,
    name: "server",
    include: ["test/**/*.test.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
