import { describe, expect, it } from "vitest";
import { parseDemoArgs } from "../src/args.js";

describe("parseDemoArgs", () => {
  it("defaults to session mode on the simulated host, human-readable", () => {
    expect(parseDemoArgs([])).toEqual({
      mode: "session",
      verbose: false,
      json: false,
      host: "sim",
    });
  });

  it("reads every option", () => {
    expect(parseDemoArgs(["--mode", "spawn", "--verbose", "--json"])).toEqual({
      mode: "spawn",
      verbose: true,
      json: true,
      host: "sim",
    });
  });

  it.each([
    [["--mode", "fast"], /--mode must be "session" or "spawn"/],
    [["--host", "remote"], /--host must be "sim" or "real"/],
    [["--colour"], /Unknown option/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseDemoArgs(argv)).toThrow(message);
  });

  it.runIf(process.platform !== "win32")("refuses --host real off Windows", () => {
    expect(() => parseDemoArgs(["--host", "real"])).toThrow(/only on Windows/);
  });
});
