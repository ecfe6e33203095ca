import { describe, expect, it } from "vitest";
import { transportScripts } from "../src/index.js";

describe("transportScripts", () => {
  it("keeps the bootstrap on one line, free of double quotes and $input", () => {
    // Windows command-line quoting mangles embedded double quotes; $input makes the host pre-read stdin.
    expect(transportScripts.bootstrap).not.toMatch(/"|\$input|\n/i);
  });

  it("keeps the host script ASCII, so no code page can mangle it", () => {
    expect(transportScripts.host).toMatch(/^[\t\n\r -~]*$/);
  });
});
