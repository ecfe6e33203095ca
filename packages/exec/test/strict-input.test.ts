import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { childPids, describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  createPowerShell,
  execChannels,
  isCsiProxyError,
  ps,
  requestFields,
  type PowerShellOptions,
} from "../src/index.js";
import { encodeParams } from "../src/params.js";

const echo = ps("test.strict.echo")`param($Value) , $Value`;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `untyped ${String(error)}`;
  }
  return undefined;
}

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const badOptions: readonly [string, unknown][] = [
  ["modules as a string", { modules: "x" }],
  ["modules with a number", { modules: [1] }],
  ["executable as a number", { executable: 7 }],
  ["executable as an object", { executable: {} }],
  ["env as a string", { env: "A=1" }],
  ["env with a number value", { env: { A: 1 } }],
  ["env with a name holding =", { env: { "A=B": "1" } }],
  ["poolSize as a string", { poolSize: "2" }],
  ["timeoutMs beyond a timer's range", { timeoutMs: 2 ** 31 }],
  ["depth as a float", { depth: 1.5 }],
  ["mode as a number", { mode: 1 }],
  ["a misspelt option", { timeout: 5 }],
  ["options as null", null],
  ["options as an array", []],
];

describe("createPowerShell checks every option before any process starts", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  afterAll(() => void process.off("unhandledRejection", onUnhandled));

  it.each(badOptions)(
    "%s is INVALID_ARGUMENT, no process, no stray rejection",
    async (_, options) => {
      const before = childPids();
      expect(codeOf(() => createPowerShell(options as PowerShellOptions))).toBe("INVALID_ARGUMENT");
      await new Promise((resolve) => setImmediate(resolve));
      expect(childPids()).toEqual(before);
      expect(unhandled).toEqual([]);
    },
  );

  it("ignores options set on Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.modules = "x";
    try {
      expect(codeOf(() => createPowerShell({ executable: "/no/such/pwsh" }))).toBeUndefined();
    } finally {
      delete proto.modules;
    }
  });
});

describe("run() checks its options before the call is accepted", () => {
  const shell = createPowerShell({ executable: "/no/such/pwsh" });
  afterAll(() => shell.close());
  const starts: unknown[] = [];
  const onStart = (event: unknown): void => void starts.push(event);

  it.each([
    ["signal as a string", { signal: "abort" }],
    ["signal as a plain object", { signal: { aborted: false } }],
    ["secrets as a string", { secrets: "Password" }],
    ["secrets with a number", { secrets: [1] }],
    ["timeoutMs as a string", { timeoutMs: "5" }],
    ["timeoutMs beyond a timer's range", { timeoutMs: 2 ** 31 }],
    ["options as null", null],
  ])("%s is INVALID_ARGUMENT with no start event", async (_, options) => {
    subscribe(execChannels.start, onStart);
    try {
      const error = await rejection(() => shell.run(echo, { Value: 1 }, options as never));
      expect(isCsiProxyError(error) && error.code).toBe("INVALID_ARGUMENT");
      expect(starts).toEqual([]);
    } finally {
      unsubscribe(execChannels.start, onStart);
    }
  });
});

describe("parameters travel exactly or not at all", () => {
  it.each([
    ["a lone high surrogate", { Path: "C:\\a\uD800b" }],
    ["a lone low surrogate, nested", { Spec: { items: ["ok", "\uDC00"] } }],
    ["a lone surrogate in a nested key", { Spec: { ["k\uD800"]: 1 } }],
    ["a top-level __proto__ parameter", JSON.parse('{"__proto__": "x"}') as object],
    ["a nested __proto__ key", { Spec: JSON.parse('{"__proto__": {"a": 1}}') as object }],
    // Windows PowerShell 5.1's JSON reader (JavaScriptSerializer) takes __type as a type hint.
    ["a parameter named __type", { __type: 1 }],
    ["a nested __type key", { Spec: { items: [{ __type: "x" }] } }],
    // ... and refuses objects of more than 1000 members (aspnet:MaxJsonDeserializerMembers).
    [
      "an object of 1001 keys",
      { Spec: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])) },
    ],
  ])("%s is INVALID_ARGUMENT", (_, params) => {
    expect(codeOf(() => encodeParams(params as never))).toBe("INVALID_ARGUMENT");
  });

  it("keeps keys that only look like 5.1's type hint, and objects of 1000 keys", () => {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    expect(() =>
      encodeParams({ Spec: { __Type: 1, type: 2, _type: 3 }, Many: many }),
    ).not.toThrow();
  });

  it("keeps a well-formed surrogate pair", () => {
    const { wire } = encodeParams({ Name: "disk-😀" });
    expect(Buffer.from((wire.Name as { s: string }).s, "base64").toString("utf8")).toBe("disk-😀");
  });
});

describe("requestFields reads own fields only", () => {
  it("does not see a flag set on Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.force = true;
    try {
      expect(requestFields({ path: "a" }, "m").force).toBeUndefined();
    } finally {
      delete proto.force;
    }
  });

  it("does not see a field inherited from the request's own prototype", () => {
    const request = Object.create({ force: true }) as Record<string, unknown>;
    expect(requestFields(request, "m").force).toBeUndefined();
  });

  it.each([
    ["a __proto__ field", JSON.parse('{"__proto__": {"force": true}}') as unknown],
    ["a lone surrogate, nested", { portal: { address: "\uDFFF" } }],
  ])("refuses %s", (_, request) => {
    expect(codeOf(() => requestFields(request, "m"))).toBe("INVALID_ARGUMENT");
  });
});

describeWithPwsh("a host without the Windows module", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it.each([
    ["Get-Disk", ps("test.strict.storage")`Get-Disk -Number 0`, "Storage"],
    ["Get-SmbGlobalMapping", ps("test.strict.smb")`Get-SmbGlobalMapping`, "SmbShare"],
    ["Get-IscsiTarget", ps("test.strict.iscsi")`Get-IscsiTarget`, "iSCSI"],
  ])("%s is UNSUPPORTED naming the module", async (command, script, module) => {
    const error = await rejection(() => shell.run(script));
    expect(isCsiProxyError(error) && error.code).toBe("UNSUPPORTED");
    expect((error as Error).message).toContain(command);
    expect((error as Error).message).toContain(`module ${module}`);
  });
});
