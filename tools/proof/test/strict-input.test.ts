import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Disk } from "@csi-proxy/disk";
import { isCsiProxyError } from "@csi-proxy/exec";
import { Filesystem } from "@csi-proxy/filesystem";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import fc from "fast-check";
import { childPids } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";

// The rule (docs/guides/security.md): every public method of every group checks every argument
// before it touches the host. Methods are enumerated from the class prototypes, so a new one is
// covered without editing this file.

type Method = (request?: unknown, options?: unknown) => Promise<unknown>;

/** A host (or link host, or fs) that records every call and never does anything. */
function recorder(calls: string[], name: string): never {
  return new Proxy(
    {},
    {
      get: (_, prop) =>
        prop === "then"
          ? undefined
          : (...args: unknown[]) => {
              calls.push(`${name}.${String(prop)}(${args.length})`);
              return Promise.reject(new Error(`${name}.${String(prop)} was called`));
            },
    },
  ) as never;
}

const packagesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "packages");

/** Members declared `private` in the package's emitted declarations: not public API. */
function privateMembers(pkg: string): Set<string> {
  const dist = join(packagesDir, pkg, "dist");
  const names = new Set<string>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith(".d.ts"))) {
    for (const match of readFileSync(join(dist, file), "utf8").matchAll(
      /^\s+private (?:readonly |get |static )*(\w+)/gm,
    )) {
      if (match[1] !== undefined) names.add(match[1]);
    }
  }
  return names;
}

interface Group {
  readonly pkg: string;
  readonly instance: object;
}

function groups(calls: string[]): Group[] {
  const host = (name: string): never => recorder(calls, name);
  return [
    { pkg: "disk", instance: new Disk({ host: host("disk") }) },
    { pkg: "volume", instance: new Volume({ host: host("volume"), pathStyle: "windows" }) },
    { pkg: "filesystem", instance: new Filesystem({ host: host("fs"), pathStyle: "windows" }) },
    {
      pkg: "smb",
      instance: new Smb({ host: host("smb"), links: host("links"), pathStyle: "windows" }),
    },
    { pkg: "iscsi", instance: new Iscsi({ host: host("iscsi") }) },
    { pkg: "system", instance: new System({ host: host("system") }) },
  ];
}

interface PublicMethod {
  readonly name: string;
  /** Whether the request may be left out (`listDiskIds()`): its parameter has a default. */
  readonly optional: boolean;
  readonly call: Method;
}

function publicMethods(group: Group): PublicMethod[] {
  const hidden = privateMembers(group.pkg);
  const proto = Object.getPrototypeOf(group.instance) as Record<string, unknown>;
  return (
    Object.getOwnPropertyNames(proto)
      // `confine` and `withLinks` make a view of the group (checked by the filesystem and smb
      // tests), not a call.
      .filter(
        (name) =>
          !["constructor", "close", "confine", "withLinks"].includes(name) && !hidden.has(name),
      )
      .flatMap((name) => {
        const value = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (typeof value !== "function") return [];
        const fn = value as Method;
        return [
          {
            name: `${group.pkg}.${name}`,
            optional: fn.length === 0,
            call: (...args: unknown[]) => fn.call(group.instance, ...args),
          },
        ];
      })
  );
}

/** Plausible values for every field any request has, so a refusal is due to the hostile part. */
const plausible: Readonly<Record<string, unknown>> = {
  diskNumber: 1,
  partitionNumber: 1,
  isOnline: true,
  page83: "abc",
  volumeId: "\\\\?\\Volume{12345678-1234-1234-1234-123456789abc}\\",
  targetPath: "C:\\var\\lib\\kubelet\\pods\\a",
  sourcePath: "C:\\var\\lib\\kubelet\\staging\\a",
  path: "C:\\var\\lib\\kubelet\\pods\\a",
  label: "data",
  fileSystem: "NTFS",
  sizeBytes: 1024,
  remotePath: "\\\\srv\\share",
  localPath: "C:\\var\\lib\\kubelet\\staging\\b",
  username: "corp\\user",
  password: "pw",
  name: "msiscsi",
  timeoutMs: 1000,
  targetPortal: { targetAddress: "10.0.0.1", targetPort: 3260 },
  iqn: "iqn.2000-01.com.example:t1",
  authType: "NONE",
  mutualChapSecret: "0123456789ab",
};

const loneSurrogate = fc
  .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string())
  .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`);

const fieldName = fc.constantFrom(...Object.keys(plausible));

/** A plausible request with one own `__proto__` field (as JSON.parse makes it). */
const withProtoKey = fc
  .constantFrom<unknown>({ force: true }, "x", null, 1)
  .map((value) =>
    Object.defineProperty({ ...plausible }, "__proto__", { value, enumerable: true }),
  );

/** A plausible request with a lone surrogate in one field, at the top or nested. */
const withLoneSurrogate = fc
  .tuple(fieldName, loneSurrogate, fc.boolean())
  .map(([field, text, nested]) => ({
    ...plausible,
    [field]: nested ? { targetAddress: text, targetPort: 3260, items: [text] } : text,
  }));

const notAnObject = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, Number.NaN, "", "request", true, [], [{}], 10n),
  fc.array(fc.anything(), { minLength: 1, maxLength: 3 }),
);

const hostile = fc.oneof(notAnObject, withProtoKey, withLoneSurrogate);

async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
  }
  return "resolved";
}

describe("every public method of every group refuses bad input before the host", () => {
  const calls: string[] = [];
  const methods = groups(calls).flatMap(publicMethods);

  it("finds the methods of every group", () => {
    const names = methods.map((m) => m.name);
    for (const expected of [
      "disk.partitionDisk",
      "volume.formatVolume",
      "filesystem.rmdir",
      "smb.listSmbGlobalMappings",
      "iscsi.connectTarget",
      "system.stopService",
    ])
      expect(names).toContain(expected);
    expect(names.some((name) => /\.(run|checked|onVolume|host)$/.test(name))).toBe(false);
  });

  it("hostile requests are INVALID_ARGUMENT and call nothing", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (request) => {
        for (const method of methods) {
          calls.length = 0;
          const code = await outcome(() => method.call(request));
          expect({ method: method.name, code, calls }).toEqual({
            method: method.name,
            code: "INVALID_ARGUMENT",
            calls: [],
          });
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each(methods.filter((m) => !m.optional).map((m) => [m.name, m] as const))(
    "%s() without a request is INVALID_ARGUMENT and calls nothing",
    async (_, method) => {
      calls.length = 0;
      expect(await outcome(() => method.call(undefined))).toBe("INVALID_ARGUMENT");
      expect(calls).toEqual([]);
    },
  );

  it("fields set on Object.prototype change nothing", async () => {
    const proto = Object.prototype as Record<string, unknown>;
    await fc.assert(
      fc.asyncProperty(fc.subarray(Object.keys(plausible), { minLength: 1 }), async (fields) => {
        for (const method of methods) {
          calls.length = 0;
          const clean = await outcome(() => method.call({}));
          const cleanCalls = [...calls];
          calls.length = 0;
          for (const field of fields) proto[field] = plausible[field];
          let polluted: string;
          try {
            polluted = await outcome(() => method.call({}));
          } finally {
            for (const field of fields) Reflect.deleteProperty(proto, field);
          }
          expect({ method: method.name, polluted, calls }).toEqual({
            method: method.name,
            polluted: clean,
            calls: cleanCalls,
          });
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("every public method of every group checks its call options before the host", () => {
  const calls: string[] = [];
  const methods = groups(calls).flatMap(publicMethods);
  // The plausible record is a valid request for every method; the first test proves it.
  const call = (method: PublicMethod, options: unknown) => method.call(plausible, options);

  const notOptions = fc.oneof(
    fc.constantFrom<unknown>(null, 0, Number.NaN, "", "fast", true, [], [{}], 10n),
    fc
      .string()
      .filter((key) => key !== "signal" && key !== "timeoutMs" && key !== "__proto__")
      .map((key) => ({ [key]: 1 })),
    fc
      .constantFrom<unknown>({}, "abort", 1, null, { aborted: true }, [], new EventTarget())
      .map((signal) => ({ signal })),
    fc
      .oneof(
        fc.integer({ max: 0 }),
        fc.integer({ min: 2 ** 31, max: 2 ** 40 }),
        fc.double({ noInteger: true }),
        fc.constantFrom<unknown>("100", null, true, [], 10n),
      )
      .map((timeoutMs) => ({ timeoutMs })),
    fc.constant(Object.defineProperty({}, "__proto__", { value: {}, enumerable: true })),
  );

  it("has a valid request for every method: an aborted signal is ABORTED and calls nothing", async () => {
    for (const method of methods) {
      calls.length = 0;
      const code = await outcome(() => call(method, { signal: AbortSignal.abort() }));
      expect({ method: method.name, code, calls }).toEqual({
        method: method.name,
        code: "ABORTED",
        calls: [],
      });
    }
  });

  it("bad options are INVALID_ARGUMENT naming the option, and call nothing", async () => {
    await fc.assert(
      fc.asyncProperty(notOptions, async (options) => {
        for (const method of methods) {
          calls.length = 0;
          let message = "";
          const code = await outcome(() =>
            call(method, options).catch((error: unknown) => {
              message = error instanceof Error ? error.message : "";
              throw error;
            }),
          );
          expect({ method: method.name, code, calls }).toEqual({
            method: method.name,
            code: "INVALID_ARGUMENT",
            calls: [],
          });
          expect(message).toMatch(/option|signal|timeoutMs/);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("a signal aborted with any reason is ABORTED with that reason as cause", async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (reason) => {
        for (const method of methods) {
          calls.length = 0;
          const controller = new AbortController();
          controller.abort(reason);
          const error = await call(method, { signal: controller.signal }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isCsiProxyError(error) && error.code).toBe("ABORTED");
          // An undefined reason becomes the DOMException AbortSignal.abort() makes.
          if (reason !== undefined) expect((error as Error).cause).toBe(reason);
          expect(calls).toEqual([]);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe("every group constructor refuses bad options before it creates anything", () => {
  const constructors: readonly [string, new (options?: unknown) => object][] = [
    ["Disk", Disk as never],
    ["Volume", Volume as never],
    ["Filesystem", Filesystem as never],
    ["Smb", Smb as never],
    ["Iscsi", Iscsi as never],
    ["System", System as never],
  ];
  const badOptions = fc.oneof(
    notAnObject,
    fc.record({ host: fc.constantFrom<unknown>("host", 1, null, true) }),
    fc.record({ shell: fc.constantFrom<unknown>("pwsh", 1, null, {}, []) }),
    fc.record({ pathStyle: fc.constantFrom<unknown>("dos", 1, null, "") }),
  );

  it("is INVALID_ARGUMENT and starts no process", () => {
    const before = childPids();
    fc.assert(
      fc.property(badOptions, (options) => {
        for (const [name, Group] of constructors) {
          // pathStyle is an option of Volume, Filesystem and Smb only; Filesystem has no shell.
          const has = (key: string): boolean =>
            typeof options === "object" && options !== null && key in options;
          const ignored =
            (has("pathStyle") && !["Volume", "Filesystem", "Smb"].includes(name)) ||
            (has("shell") && name === "Filesystem");
          if (ignored) continue;
          let code: string;
          try {
            new Group(options);
            code = "constructed";
          } catch (error) {
            code = isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
          }
          expect({ name, code }).toEqual({ name, code: "INVALID_ARGUMENT" });
        }
      }),
      { numRuns: 100 },
    );
    expect(childPids()).toEqual(before);
  });
});
