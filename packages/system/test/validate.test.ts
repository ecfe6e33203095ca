import { describe, expect, it } from "vitest";
import { isCsiProxyError, System } from "../src/index.js";
import { codes, FakeSystemHost, service } from "./fake-host.js";

function setup() {
  const host = new FakeSystemHost([service("svc", codes.running)]);
  return { host, system: new System({ host }) };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : "not a CsiProxyError";
  }
  return "resolved";
}

const badNames: [string, unknown][] = [
  ["empty", ""],
  ["not a string", 42],
  ["missing", undefined],
  ["null", null],
  ["a * wildcard", "MSi*"],
  ["a ? wildcard", "MSiSCS?"],
  ["a [ wildcard", "MSi[S]CSI"],
  ["a lone ]", "svc]"],
  ["a NUL", "svc\u0000"],
  ["a newline", "svc\nStop-Service x"],
  ["a tab", "s\tvc"],
  ["DEL", "svc\u007f"],
  ["a backslash", "a\\b"],
  ["a slash", "a/b"],
  ["257 characters", "s".repeat(257)],
];

describe("validation happens before any host call", () => {
  it.each(badNames)("rejects a name with %s in every method", async (_label, name) => {
    const { host, system } = setup();
    const request = { name } as { name: string };
    expect(await code(system.getService(request))).toBe("INVALID_ARGUMENT");
    expect(await code(system.startService(request))).toBe("INVALID_ARGUMENT");
    expect(await code(system.stopService(request))).toBe("INVALID_ARGUMENT");
    expect(await code(system.stopService({ ...request, force: true }))).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it("accepts names Windows allows: spaces, dots, dashes, $, non-ASCII, 256 characters", async () => {
    const names = ["Print Spooler", "MSSQL$SQLEXPRESS", "a.b-c_d", "dienst-ä", "s".repeat(256)];
    const host = new FakeSystemHost(names.map((n) => service(n, codes.running)));
    const system = new System({ host });
    for (const name of names) await system.getService({ name });
    expect(host.calls.map((c) => c.name)).toEqual(names);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity, 86_400_001, "100", null])(
    "rejects timeoutMs %s",
    async (timeoutMs) => {
      const { host, system } = setup();
      const request = { name: "svc", timeoutMs } as { name: string; timeoutMs: number };
      expect(await code(system.startService(request))).toBe("INVALID_ARGUMENT");
      expect(await code(system.stopService(request))).toBe("INVALID_ARGUMENT");
      expect(host.calls).toEqual([]);
    },
  );

  it("accepts timeoutMs from 1 ms to one day", async () => {
    const { host, system } = setup();
    await system.startService({ name: "svc", timeoutMs: 1 });
    await system.startService({ name: "svc", timeoutMs: 86_400_000 });
    expect(host.calls.map((c) => c.wait?.timeoutMs)).toEqual([1, 86_400_000]);
  });

  it.each(["yes", 1, null])("rejects force %s", async (force) => {
    const { host, system } = setup();
    const request = { name: "svc", force } as unknown as { name: string; force: boolean };
    expect(await code(system.stopService(request))).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it.each([null, "svc", ["svc"], 7])(
    "rejects a request that is not an object: %s",
    async (request) => {
      const { host, system } = setup();
      const bad = request as unknown as { name: string };
      expect(await code(system.getService(bad))).toBe("INVALID_ARGUMENT");
      expect(await code(system.startService(bad))).toBe("INVALID_ARGUMENT");
      expect(await code(system.stopService(bad))).toBe("INVALID_ARGUMENT");
      expect(await code(system.getBiosSerialNumber(bad as never))).toBe("INVALID_ARGUMENT");
      expect(host.calls).toEqual([]);
    },
  );
});
