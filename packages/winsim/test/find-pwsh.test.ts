import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it, vi } from "vitest";
import {
  createSimulatedPowerShell,
  demoNodeWorld,
  findPwsh,
  PwshNotFoundError,
  scenarios,
  Simulator,
  simulatorPwshVersion,
  winsimCacheDir,
} from "../src/index.js";
import { pwshVersionOf } from "../provision.mjs";

const scratch = mkdtempSync(join(tmpdir(), "winsim-find-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A stand-in executable that prints a version, as `pwsh -Command $PSVersionTable...` would.
function fakePwsh(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "pwsh");
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function failure(call: Promise<unknown>): Promise<PwshNotFoundError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PwshNotFoundError);
  return error as PwshNotFoundError;
}

const empty = join(scratch, "empty-cache");

it("names the cache folder from CSI_WINSIM_CACHE, then XDG_CACHE_HOME", () => {
  expect(winsimCacheDir({ CSI_WINSIM_CACHE: "/c", XDG_CACHE_HOME: "/x" })).toBe("/c");
  expect(winsimCacheDir({ XDG_CACHE_HOME: "/x" })).toBe("/x/csi-proxy-winsim");
  expect(winsimCacheDir({})).toMatch(/[\\/]\.cache[\\/]csi-proxy-winsim$/);
});

it.skipIf(process.platform === "win32")(
  "says what to install when nothing is on PATH and provisioning is off",
  async () => {
    const error = await failure(findPwsh({ env: { PATH: "" }, cacheDir: empty, provision: false }));
    expect(error.code).toBe("EXECUTABLE_NOT_FOUND");
    expect(error.name).toBe("PwshNotFoundError");
    expect(error.message).toContain("PowerShell 7");
    expect(error.message).toContain(".NET SDK 8");
    expect(error.attempts).toEqual(["no pwsh on PATH", "provisioning turned off"]);
  },
);

it.skipIf(process.platform === "win32")(
  "passes over a pwsh on PATH that is not PowerShell 7",
  async () => {
    const old = fakePwsh(join(scratch, "old"), "6.2.7");
    const error = await failure(
      findPwsh({ env: { PATH: join(scratch, "old") }, cacheDir: empty, provision: false }),
    );
    expect(error.attempts[0]).toBe(`pwsh on PATH (${old}) reports 6.2.7`);
  },
);

it.skipIf(process.platform === "win32")(
  "refuses an explicit pwsh that is not 7 rather than falling back",
  async () => {
    const five = fakePwsh(join(scratch, "five"), "5.1.19041");
    const error = await failure(findPwsh({ env: { CSI_WINSIM_PWSH: five, PATH: "" } }));
    expect(error.message).toContain(`CSI_WINSIM_PWSH ${five} reports PowerShell 5.1.19041`);
    const missing = await failure(findPwsh({ path: join(scratch, "nope") }));
    expect(missing.message).toContain("does not run");
  },
);

it.skipIf(process.platform === "win32")(
  "says in one line on stderr that it provisions PowerShell, even when quiet",
  async () => {
    // A dotnet that reports a version but fails the install: provisioning starts, then fails.
    const bin = join(scratch, "dotnet-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "dotnet"),
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo 8.0.100; exit 0; fi\nexit 1\n',
    );
    chmodSync(join(bin, "dotnet"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}${delimiter}${path ?? ""}`;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const cacheDir = join(scratch, "provision-cache");
      const error = await failure(findPwsh({ env: { PATH: "" }, cacheDir }));
      expect(error.attempts.at(-1)).toMatch(/^provisioning into .* failed$/);
      expect(written).toEqual([
        `@csi-proxy/winsim: provisioning PowerShell ${simulatorPwshVersion} into ${join(cacheDir, `pwsh-${simulatorPwshVersion}`)} (dotnet tool install, a one-time download of about 200 MB)...\n`,
      ]);
    } finally {
      spy.mockRestore();
      process.env.PATH = path;
    }
  },
);

it.skipIf(process.platform === "win32")(
  "probes a pwsh in its own process group, which a Ctrl-C at the terminal does not reach",
  () => {
    const dir = join(scratch, "pgid");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pwsh"), "#!/bin/sh\nps -o pgid= -p $$\n");
    chmodSync(join(dir, "pwsh"), 0o755);
    const own = execFileSync("ps", ["-o", "pgid=", "-p", String(process.pid)], {
      encoding: "utf8",
    });
    const probed = pwshVersionOf(join(dir, "pwsh"));
    expect(probed).toMatch(/^\d+$/);
    expect(probed).not.toBe(own.trim());
  },
);

it.skipIf(process.platform === "win32")(
  "reports a probe killed by a terminal's signal as interrupted, not as a pwsh that does not run",
  () => {
    const dir = join(scratch, "killed");
    mkdirSync(dir, { recursive: true });
    // A pwsh whose start is cut short by the Ctrl-C that reached it before it left the group.
    writeFileSync(join(dir, "pwsh"), "#!/bin/sh\nkill -INT $$\nsleep 5\n");
    chmodSync(join(dir, "pwsh"), 0o755);
    expect(() => pwshVersionOf(join(dir, "pwsh"))).toThrow(
      expect.objectContaining({ code: "ABORTED", signal: "SIGINT" }),
    );
  },
);

describeWithPwsh("findPwsh with a real PowerShell 7", (pwsh) => {
  it("takes options.path over CSI_WINSIM_PWSH, and CSI_WINSIM_PWSH over PATH", async () => {
    const other = fakePwsh(join(scratch, "other"), "7.0.0");
    expect(await findPwsh({ path: pwsh, env: { CSI_WINSIM_PWSH: other } })).toBe(pwsh);
    expect(await findPwsh({ env: { CSI_WINSIM_PWSH: pwsh, PATH: join(scratch, "other") } })).toBe(
      pwsh,
    );
  });

  it.skipIf(process.platform === "win32")("finds pwsh 7 on PATH", async () => {
    const bin = join(scratch, "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(pwsh, join(bin, "pwsh"));
    const found = await findPwsh({ env: { PATH: bin }, cacheDir: empty, provision: false });
    expect(found).toBe(pwsh);
  });

  it.skipIf(process.platform === "win32")(
    "reuses a copy provisioned into the cache folder",
    async () => {
      const toolDir = join(scratch, "cache", `pwsh-${simulatorPwshVersion}`);
      mkdirSync(join(toolDir, "bin"), { recursive: true });
      symlinkSync(pwsh, join(toolDir, "bin", "pwsh"));
      writeFileSync(join(toolDir, "VERSION"), `${simulatorPwshVersion}\n`);
      const env = { PATH: "", CSI_WINSIM_CACHE: join(scratch, "cache") };
      expect(await findPwsh({ env, provision: false })).toBe(join(toolDir, "bin", "pwsh"));
    },
  );

  it("hands out a PowerShell bound to the simulator", async () => {
    const sim = await Simulator.create(scenarios.demoNode());
    const shell = await createSimulatedPowerShell(sim, { pwsh: { path: pwsh } });
    try {
      const count = await shell.run(ps`@(Get-Disk).Count`);
      expect(Number(count)).toBe(sim.state().disks.length);
      expect(sim.calls().map((call) => call.command)).toEqual(["Get-Disk"]);
    } finally {
      await shell.close();
      await sim[Symbol.asyncDispose]();
    }
  });
});

it("demoNode adds the array, file server and BIOS serial of demoNodeWorld to demo()", async () => {
  await using sim = await Simulator.create(scenarios.demoNode());
  const state = sim.state();
  expect(state.disks.length).toBe((scenarios.demo().disks?.length ?? 0) + 1);
  expect(JSON.stringify(state.iscsi)).toContain(demoNodeWorld.iqn);
  expect(JSON.stringify(state.smb)).toContain("files.example.com");
  expect(state.system?.bios?.serialNumber?.trim()).toBe(demoNodeWorld.biosSerial);
});
