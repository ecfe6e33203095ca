import { CsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { exitCodes, type CliGroups } from "../src/index.js";
import { portalArg } from "../src/parse-args.js";
import { renderJson } from "../src/render.js";
import { fixedGroups, runIn } from "./harness.js";

const everyCode: CsiProxyErrorCode[] = [
  "COMMAND_FAILED",
  "TIMEOUT",
  "ABORTED",
  "PROCESS_EXITED",
  "PARSE_FAILED",
  "EXECUTABLE_NOT_FOUND",
  "INVALID_ARGUMENT",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "CONFLICT",
  "PERMISSION_DENIED",
  "FAILED_PRECONDITION",
  "UNSUPPORTED",
];

// Only what a test calls: any other method is absent and would fail the run as UNEXPECTED.
function fakeGroups(parts: Record<string, Record<string, unknown>>) {
  return fixedGroups(parts as unknown as Omit<CliGroups, "close">);
}

describe("exit codes", () => {
  it("gives every library error code its own exit code, apart from 0, 1, 2 and 3", () => {
    const library = everyCode.map((code) => exitCodes[code]);
    expect(new Set([...library, 0, 1, 2, 3]).size).toBe(everyCode.length + 4);
    expect([exitCodes.OK, exitCodes.UNEXPECTED, exitCodes.USAGE]).toEqual([0, 1, 2]);
  });

  it.each(everyCode)("a %s from a group exits with its code, on one line", async (code) => {
    const groups = fakeGroups({
      disk: {
        getDiskStats: () => Promise.reject(new CsiProxyError(`first\n  second ${code}`, { code })),
      },
    });
    const ran = await runIn(["disks", "show", "9"], { groups });
    expect(ran.code).toBe(exitCodes[code]);
    expect(ran.stderr).toBe(`csi-proxy: ${code}: first second ${code}\n`);
    expect(ran.stdout).toBe("");
  });

  it("an error without a code is UNEXPECTED (1)", async () => {
    const groups = fakeGroups({ disk: { getDiskStats: () => Promise.reject(new Error("boom")) } });
    const ran = await runIn(["disks", "show", "1"], { groups });
    expect(ran).toMatchObject({ code: 1, stderr: "csi-proxy: UNEXPECTED: boom\n" });
  });
});

describe("Ctrl-C", () => {
  it("hands every group call the run's signal, so an interrupt ends the call in flight as ABORTED", async () => {
    const interrupt = new AbortController();
    const seen: unknown[] = [];
    const groups = fakeGroups({
      disk: {
        getDiskStats: (_request: unknown, options: { signal: AbortSignal }) => {
          seen.push(options);
          // A group method ends its call when the signal aborts, as withCallContext does.
          return new Promise((_, reject) => {
            options.signal.addEventListener("abort", () =>
              reject(new CsiProxyError("getDiskStats was aborted.", { code: "ABORTED" })),
            );
            interrupt.abort(new Error("interrupted (Ctrl-C)"));
          });
        },
      },
    });
    const ran = await runIn(["disks", "show", "1"], { groups, signal: interrupt.signal });
    expect(seen).toEqual([{ signal: interrupt.signal }]);
    expect(ran).toMatchObject({
      code: exitCodes.ABORTED,
      stderr: "csi-proxy: ABORTED: getDiskStats was aborted.\n",
    });
  });
});

describe("Ctrl-C whatever the call in flight ends with", () => {
  it("is ABORTED when the interrupt killed the call's process first (a terminal signals the whole group)", async () => {
    const interrupt = new AbortController();
    const groups = fakeGroups({
      disk: {
        getDiskStats: () => {
          interrupt.abort(new Error("interrupted (Ctrl-C)"));
          return Promise.reject(
            new CsiProxyError("PowerShell exited on signal SIGINT while running disk.get.", {
              code: "PROCESS_EXITED",
            }),
          );
        },
      },
    });
    const ran = await runIn(["disks", "show", "1"], { groups, signal: interrupt.signal });
    expect(ran).toMatchObject({
      code: exitCodes.ABORTED,
      stderr:
        "csi-proxy: ABORTED: interrupted (Ctrl-C); the call in flight ended with PROCESS_EXITED: PowerShell exited on signal SIGINT while running disk.get.\n",
    });
  });

  it("ends a listing at once instead of filling its rows with ABORTED problems", async () => {
    const interrupt = new AbortController();
    const asked: number[] = [];
    const groups = fakeGroups({
      disk: {
        listDiskIds: () =>
          Promise.resolve({
            diskIds: new Map([
              [1, {}],
              [2, {}],
            ]),
            errors: [],
          }),
        listDiskLocations: () => Promise.resolve({ diskLocations: new Map() }),
        getDiskStats: ({ diskNumber }: { diskNumber: number }) => {
          asked.push(diskNumber);
          interrupt.abort(new Error("interrupted (Ctrl-C)"));
          return Promise.reject(
            new CsiProxyError("getDiskStats was aborted.", { code: "ABORTED" }),
          );
        },
      },
    });
    const ran = await runIn(["disks", "list"], { groups, signal: interrupt.signal });
    expect(ran).toMatchObject({
      code: exitCodes.ABORTED,
      stdout: "",
      stderr: "csi-proxy: ABORTED: getDiskStats was aborted.\n",
    });
    expect(asked).toEqual([1]);
  });

  it("while the node is prepared, starts no command", async () => {
    const interrupt = new AbortController();
    const groups = fakeGroups({
      smb: { listSmbGlobalMappings: () => Promise.resolve({ mappings: [] }) },
    });
    const preparing = () => {
      interrupt.abort(new Error("interrupted (Ctrl-C)"));
      return groups({ simulate: true });
    };
    const ran = await runIn(["--simulate", "smb", "list"], {
      groups: preparing,
      signal: interrupt.signal,
    });
    expect(ran).toMatchObject({ code: exitCodes.ABORTED, stdout: "" });
    expect(ran.stderr).toBe("csi-proxy: ABORTED: interrupted (Ctrl-C)\n");
  });
});

describe("the simulated node", () => {
  it("is prepared under its own step before the command's own", async () => {
    const groups = fakeGroups({
      smb: { listSmbGlobalMappings: () => Promise.resolve({ mappings: [] }) },
    });
    const ran = await runIn(["--simulate", "smb", "list"], { groups, tty: true });
    expect(ran.code).toBe(0);
    const preparing = ran.stderr.indexOf("Preparing the simulated node");
    expect(preparing).toBeGreaterThanOrEqual(0);
    expect(ran.stderr.indexOf("Reading SMB mappings")).toBeGreaterThan(preparing);
  });

  it.each([["C:\\var\\lib\\kubelet\\x"], ["\\\\?\\C:\\x"], ["c:/x"]])(
    "refuses the Windows path %s before touching the node: it uses Linux paths",
    async (path) => {
      const groups = fakeGroups({});
      for (const argv of [
        ["volumes", "target", path],
        [
          "volumes",
          "unmount",
          "\\\\?\\Volume{0a0a0a0a-0000-0000-0000-000000000001}\\",
          path,
          "--yes",
        ],
      ]) {
        const ran = await runIn(["--simulate", ...argv], { groups });
        expect(ran.code).toBe(exitCodes.INVALID_ARGUMENT);
        expect(ran.stderr).toContain(
          `${path} is a Windows path, but the simulated node uses Linux paths`,
        );
        expect(ran.stderr).toContain("--state-dir DIR");
      }
      expect(groups.calls).toBe(0);
    },
  );
});

describe("a named item that is missing", () => {
  it("volumes list 99 fails with NOT_FOUND as services Nope does, not as a row", async () => {
    const groups = fakeGroups({
      volume: {
        listVolumesOnDisk: ({ diskNumber }: { diskNumber: number }) =>
          diskNumber === 99
            ? Promise.reject(new CsiProxyError("Disk 99 was not found.", { code: "NOT_FOUND" }))
            : Promise.resolve({ volumeIds: [] }),
      },
    });
    const ran = await runIn(["volumes", "list", "1", "99"], { groups });
    expect(ran).toMatchObject({
      code: exitCodes.NOT_FOUND,
      stdout: "",
      stderr: "csi-proxy: NOT_FOUND: Disk 99 was not found.\n",
    });
  });
});

describe("usage", () => {
  it("--help lists the commands, the global options and the exit-code table", async () => {
    const ran = await runIn(["--help"]);
    expect(ran.code).toBe(0);
    for (const text of ["disks", "volumes", "smb", "iscsi", "services", "--json", "--simulate"]) {
      expect(ran.stdout).toContain(text);
    }
    expect(ran.stdout).toMatch(/^ +11 +NOT_FOUND +/m);
    expect(ran.stdout).toMatch(/^ +2 +USAGE +/m);
  });

  it.each([["disks"], ["volumes"], ["smb"], ["iscsi"], ["services"]])(
    "%s --help describes its commands",
    async (group) => {
      const ran = await runIn([group, "--help"]);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`Usage: csi-proxy ${group}`);
    },
  );

  it("--version prints the package version", async () => {
    const ran = await runIn(["--version"]);
    expect(ran).toMatchObject({ code: 0, stdout: "0.0.0\n" });
  });

  it.each([
    [["disks", "lst"]],
    [["disks", "show"]],
    [["disks", "show", "three"]],
    [["--frobnicate", "disks", "list"]],
    [["iscsi", "logout", "[fe80::1", "iqn.x"]],
    [[]],
  ])("%j is bad usage: exit 2 before anything runs", async (argv) => {
    const ran = await runIn(argv);
    expect(ran.code).toBe(exitCodes.USAGE);
    expect(ran.stderr).toContain("csi-proxy");
    expect(ran.stdout).toBe("");
  });
});

describe("changing commands", () => {
  const changes = [
    ["volumes", "unmount", "\\\\?\\Volume{0a0a0a0a-0000-0000-0000-000000000001}\\", "C:\\mnt\\x"],
    ["smb", "unmap", "\\\\server\\share"],
    ["iscsi", "logout", "10.0.0.5:3260", "iqn.2003-01.org.example:t1"],
  ];

  it.each(changes)(
    "%s %s without a terminal and without --yes refuses, touching nothing",
    async (...argv) => {
      const groups = fakeGroups({});
      const ran = await runIn(argv);
      const ranJson = await runIn([...argv, "--json"], { groups });
      for (const r of [ran, ranJson]) {
        expect(r.code).toBe(exitCodes.USAGE);
        expect(r.stderr).toContain("This will change the node:");
        expect(r.stderr).toContain("refusing to change the node without confirmation: pass --yes");
        expect(r.stdout).toBe("");
      }
      expect(groups.calls).toBe(0);
    },
  );

  it("answered no at a terminal, changes nothing and exits DECLINED", async () => {
    const groups = fakeGroups({});
    const ran = await runIn(["smb", "unmap", "\\\\server\\share"], {
      groups,
      tty: true,
      input: "n\n",
    });
    expect(ran.code).toBe(exitCodes.DECLINED);
    expect(ran.stderr).toContain("Proceed? [y/N]");
    expect(groups.calls).toBe(0);
  });

  it("a closed input at the prompt is a no", async () => {
    const groups = fakeGroups({});
    const ran = await runIn(["smb", "unmap", "\\\\server\\share"], {
      groups,
      tty: true,
      input: "",
    });
    expect(ran.code).toBe(exitCodes.DECLINED);
    expect(groups.calls).toBe(0);
  });

  it("answered yes at a terminal, makes exactly the change it printed", async () => {
    const removed: unknown[] = [];
    const groups = fakeGroups({
      smb: {
        removeSmbGlobalMapping: (request: unknown) => {
          removed.push(request);
          return Promise.resolve({ removed: true });
        },
      },
    });
    const ran = await runIn(["smb", "unmap", "\\\\server\\share\\dir"], {
      groups,
      tty: true,
      input: "yes\n",
    });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(
      "remove the SMB global mapping of the share holding \\\\server\\share\\dir",
    );
    expect(removed).toEqual([{ remotePath: "\\\\server\\share\\dir" }]);
    expect(ran.stdout).toBe("Removed the mapping of \\\\server\\share\\dir.\n");
  });
});

describe("output", () => {
  it("JSON writes every bigint as a decimal string", () => {
    expect(JSON.parse(renderJson({ a: 2n ** 64n - 1n, b: 1 }))).toEqual({
      a: "18446744073709551615",
      b: 1,
    });
  });

  it("shows a progress line on a terminal's stderr, and none with --json", async () => {
    const groups = () =>
      fakeGroups({ smb: { listSmbGlobalMappings: () => Promise.resolve({ mappings: [] }) } });
    const onTty = await runIn(["smb", "list"], { groups: groups(), tty: true });
    const json = await runIn(["smb", "list", "--json"], { groups: groups(), tty: true });
    const piped = await runIn(["smb", "list"], { groups: groups() });
    expect(onTty.stderr).toContain("Reading SMB mappings");
    expect(json.stderr).toBe("");
    expect(piped.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toEqual({ mappings: [] });
  });
});

describe("portal arguments", () => {
  it.each([
    ["10.0.0.5", { targetAddress: "10.0.0.5" }],
    ["10.0.0.5:3261", { targetAddress: "10.0.0.5", targetPort: 3261 }],
    ["array.example.com:3260", { targetAddress: "array.example.com", targetPort: 3260 }],
    ["[fe80::1]:3260", { targetAddress: "fe80::1", targetPort: 3260 }],
    ["[fe80::1]", { targetAddress: "fe80::1" }],
    ["fe80::1", { targetAddress: "fe80::1" }],
  ])("%s", (text, portal) => {
    expect(portalArg(text)).toEqual(portal);
  });
});
