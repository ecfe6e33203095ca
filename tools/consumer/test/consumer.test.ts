import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { pwshPath } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExampleProject,
  driverNodeExample,
  runExampleTests,
  typecheckExample,
} from "../src/example.js";
import { packAll, publishedPackages } from "../src/pack.js";
import {
  createProject,
  installedCsiProxyPackages,
  runDriver,
  typecheck,
  type Manager,
  type ModuleMode,
} from "../src/project.js";
import { run } from "../src/run.js";

// Outside the repository, so nothing resolves through the workspace's node_modules.
const root = mkdtempSync(join(tmpdir(), "csi-proxy-consumer-"));
const npmCache = join(tmpdir(), "csi-proxy-consumer-npm-cache");
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const modes: ModuleMode[] = ["nodenext", "bundler"];
const groups = publishedPackages().map((p) => p.name);
let tarballs = new Map<string, string>();

beforeAll(async () => {
  tarballs = await packAll(join(root, "tarballs"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the packed tarballs", () => {
  it("ship LICENSE, NOTICE, README, CHANGELOG and every source a source map names", async () => {
    expect([...tarballs.keys()].sort()).toEqual([...groups].sort());
    for (const [name, tarball] of tarballs) {
      const dir = join(root, "extracted", name);
      mkdirSync(dir, { recursive: true });
      await run("tar", ["-xzf", tarball, "-C", dir], { cwd: root });
      const files = (await run("tar", ["-tzf", tarball], { cwd: root })).split("\n");
      for (const required of ["LICENSE", "NOTICE", "README.md", "CHANGELOG.md", "dist/index.js"]) {
        expect(files, `${name} ${required}`).toContain(`package/${required}`);
      }
      const repoLicense = readFileSync(join(dir, "package/LICENSE"), "utf8");
      expect(repoLicense, name).toContain("Apache License\n                           Version 2.0");
      for (const map of files.filter((f) => f.endsWith(".map"))) {
        const { sources } = JSON.parse(readFileSync(join(dir, map), "utf8")) as {
          sources: string[];
        };
        for (const source of sources) {
          expect(existsSync(resolve(dirname(join(dir, map)), source)), `${map} → ${source}`).toBe(
            true,
          );
        }
      }
    }
  });
});

for (const manager of ["npm", "pnpm"] satisfies Manager[]) {
  describe(`a Disk-only driver installed with ${manager}`, () => {
    const dir = join(root, `${manager}-disk`);
    beforeAll(async () => {
      // No @types/node: the declarations of exec and disk must not need it.
      await createProject({
        dir,
        manager,
        tarballs,
        install: ["@csi-proxy/disk", "@csi-proxy/exec"],
        fixture: fixture("disk-driver.ts"),
        npmCache,
      });
    });

    it("pulls in no other group", () => {
      expect(installedCsiProxyPackages(dir)).toEqual(["@csi-proxy/disk", "@csi-proxy/exec"]);
    });

    it.each(modes)("type-checks under module %s, default types, no skipLibCheck", async (mode) => {
      await typecheck(dir, mode);
    });

    it("runs, and reaches PowerShell through the installed exec", async () => {
      const pwsh = pwshPath();
      const env: Record<string, string> =
        pwsh === undefined ? {} : { CSI_PROXY_CONSUMER_PWSH: pwsh };
      expect(await runDriver(dir, env)).toContain("disk driver ok");
    });
  });

  describe(`a driver using every group, installed with ${manager}`, () => {
    const dir = join(root, `${manager}-all`);
    beforeAll(async () => {
      // @types/node, as every Node project has: the Filesystem host is typed with node:fs.
      await createProject({
        dir,
        manager,
        tarballs,
        install: groups,
        extra: { "@types/node": "^20.19.0" },
        fixture: fixture("all-groups.ts"),
        npmCache,
      });
    });

    it("installs every group once", () => {
      expect(installedCsiProxyPackages(dir)).toEqual([...groups].sort());
    });

    it.each(modes)("type-checks under module %s, default types, no skipLibCheck", async (mode) => {
      await typecheck(dir, mode);
    });

    it("runs: every group refuses a bad request with a typed error", async () => {
      expect(await runDriver(dir)).toContain("all groups ok");
    });

    it("has a working csi-proxy command from @csi-proxy/cli's bin", async () => {
      const help = await run(join(dir, "node_modules", ".bin", "csi-proxy"), ["--help"], {
        cwd: dir,
      });
      expect(help).toContain("Exit codes:");
    });
  });
}

describe("the server alone, installed with npm as a Windows node installs it", () => {
  const dir = join(root, "npm-server");
  beforeAll(async () => {
    await createProject({
      dir,
      manager: "npm",
      tarballs,
      install: ["@csi-proxy/server"],
      extra: { "@types/node": "^20.19.0" },
      fixture: fixture("server-only.ts"),
      npmCache,
    });
  }, 600_000);

  it("does not install the simulator, an optional peer needed only for --simulate", () => {
    expect(installedCsiProxyPackages(dir)).not.toContain("@csi-proxy/winsim");
  });

  it("type-checks and runs without it", async () => {
    expect(await runDriver(dir)).toContain("server ok");
  });

  it("answers --simulate without it with what to install", async () => {
    const bin = join(dir, "node_modules", "@csi-proxy", "server", "dist", "bin.js");
    const args = ["--socket-dir", join(dir, "sockets"), "--simulate", "--policy", "v1-compatible"];
    const failure = await run(process.execPath, [bin, ...args], { cwd: dir }).then(
      (out) => new Error(`started: ${out}`),
      (error: unknown) => error as Error,
    );
    expect(failure.message).toContain(
      "csi-proxy-server: FAILED_PRECONDITION: --simulate needs @csi-proxy/winsim, which is not installed",
    );
  });
});

describe("the worked example (examples/driver-node) installed from the tarballs", () => {
  const dir = join(root, "driver-node");
  const pwsh = pwshPath();
  beforeAll(async () => {
    await createExampleProject({ dir, example: driverNodeExample, tarballs, npmCache });
  }, 600_000);

  it("installs the groups it imports and the simulator, nothing else of ours", () => {
    expect(installedCsiProxyPackages(dir)).toEqual([
      "@csi-proxy/disk",
      "@csi-proxy/exec",
      "@csi-proxy/filesystem",
      "@csi-proxy/smb",
      "@csi-proxy/volume",
      "@csi-proxy/winsim",
    ]);
  });

  it("type-checks with its own tsconfig (strict, nodenext, no skipLibCheck)", async () => {
    await typecheckExample(dir);
  });

  // Hang guard only: every test of the example starts PowerShell against a fresh simulated host.
  it.skipIf(pwsh === undefined)(
    "passes its own tests with npx vitest run, on PowerShell found by findPwsh",
    async () => {
      // The repository's provisioned pwsh, so the example does not provision its own copy.
      const summary = await runExampleTests(dir, { CSI_WINSIM_PWSH: pwsh ?? "" });
      expect(summary).toMatchObject({ success: true, numFailedTests: 0, numPendingTests: 0 });
      expect(summary.numPassedTests).toBe(summary.numTotalTests);
      expect(summary.numPassedTests).toBeGreaterThanOrEqual(9);
    },
    1_200_000,
  );
});
