import { describe, expect, it } from "vitest";
import { requestFields, bindHost, ps, validateUint32, type PowerShell } from "../src/index.js";

const fakeShell = (): PowerShell & { closed: number } => {
  const shell = {
    mode: "session" as const,
    closed: 0,
    run: () => Promise.resolve(undefined as never),
    warmUp: () => Promise.resolve(),
    close: () => {
      shell.closed++;
      return Promise.resolve();
    },
  };
  return shell;
};

describe("bindHost", () => {
  it("uses a given host as is and closes nothing", async () => {
    const host = { name: "fake" };
    const binding = bindHost("Disk", { host }, () => ({ name: "created" }));
    expect(binding.host).toBe(host);
    await binding.close();
  });

  it("builds the host on a given shell and leaves that shell open", async () => {
    const shell = fakeShell();
    const binding = bindHost("Disk", { shell }, (s) => ({ shell: s }));
    expect(binding.host.shell).toBe(shell);
    await binding.close();
    expect(shell.closed).toBe(0);
  });

  it("creates and owns a shell when given neither", async () => {
    let created: PowerShell | undefined;
    const binding = bindHost("Disk", {}, (s) => {
      created = s;
      return {};
    });
    expect(created?.mode).toBe("session");
    await binding.close();
    // A closed host refuses calls before starting any process.
    await expect(created?.run(ps("test.closed")`1`)).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("refuses both", () => {
    expect(() => bindHost("Volume", { host: {}, shell: fakeShell() }, () => ({}))).toThrow(
      /Volume takes a host or a shell/,
    );
  });
});

describe("request validation", () => {
  it.each([null, undefined, 3, "x", []])("rejects %o as a request", (value) => {
    expect(() => requestFields(value, "getDiskStats")).toThrow(
      /getDiskStats takes a request object/,
    );
  });

  it("accepts plain objects", () => {
    expect(() => requestFields({}, "rescan")).not.toThrow();
  });

  it.each([-1, 1.5, 2 ** 32, Number.NaN, "1", null])("rejects %o as a uint32", (value) => {
    expect(() => validateUint32(value, "diskNumber")).toThrow(/diskNumber must be an integer/);
  });

  it("accepts the uint32 range", () => {
    expect(validateUint32(0, "n")).toBe(0);
    expect(validateUint32(2 ** 32 - 1, "n")).toBe(2 ** 32 - 1);
  });
});
