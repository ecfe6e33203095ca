import { mkdirSync } from "node:fs";
import { win32 } from "node:path";
import { fileURLToPath } from "node:url";
import { createPowerShell, ps, type PowerShell } from "@csi-proxy/exec";
import type { ConformanceHost } from "./host.js";
import { generateSecrets, runTag } from "./secrets.js";
import type { Selection } from "./select.js";

const GiB = 1024 ** 3;
const scriptsDir = fileURLToPath(new URL("../windows/", import.meta.url));
/**
 * One fixture call (setup, grow, teardown). The workflow installs the iSCSI Target Server before
 * the suite (windows/provision.ps1), but on a VM you provision yourself setup.ps1 installs it,
 * which takes 1 to 3 minutes.
 */
export const fixtureTimeoutMs = 15 * 60_000;

/**
 * The suite's beforeAll/afterAll allowance on Windows: a failed setup is undone before the hook
 * returns, so two fixture calls; their own timeouts fire first and the hook never abandons a
 * running fixture (with `host` unset, nothing would be torn down).
 */
export const windowsHookTimeoutMs = 2 * fixtureTimeoutMs + 60_000;

/**
 * The fixture (windows/*.ps1) always runs in Windows PowerShell, whichever PowerShell the library
 * is given: the matrix varies only the library's, and New-LocalUser fails in PowerShell 7.3+ on
 * builds before 24H2 (PowerShell/PowerShell#18624, #21645).
 */
export const fixtureExecutable = "powershell.exe";

// Each runner calls one file of windows/ by path with named, bound parameters: values (secrets
// included: names with Password/Secret are redacted by @csi-proxy/exec) never become code.
const runSetup = ps("conformance.windows.setup")`
param([string]$ScriptPath, [string]$Root, [string]$Tag, [uint64]$DiskBytes, [int]$DiskCount, [uint64]$LunBytes, [string]$SmbPassword, [string]$ChapSecret, [string]$MutualTargetChapSecret, [string]$MutualSecret, [string]$Service)
& $ScriptPath -Root $Root -Tag $Tag -DiskBytes $DiskBytes -DiskCount $DiskCount -LunBytes $LunBytes -SmbPassword $SmbPassword -ChapSecret $ChapSecret -MutualTargetChapSecret $MutualTargetChapSecret -MutualSecret $MutualSecret -Service $Service
`;

const runGrowDisk = ps("conformance.windows.growDisk")`
param([string]$ScriptPath, [string]$Root, [string]$Path, [uint64]$Bytes)
& $ScriptPath -Root $Root -Path $Path -Bytes $Bytes
`;

const runTeardown = ps("conformance.windows.teardown")`
param([string]$ScriptPath, [string]$Root, [string]$Tag, [string]$PortalAddress, [string]$Service, [bool]$UninstallFeature, [bool]$StopInitiator)
& $ScriptPath -Root $Root -Tag $Tag -PortalAddress $PortalAddress -Service $Service -UninstallFeature:$UninstallFeature -StopInitiator:$StopInitiator
`;

/** The runner scripts, for the static check in test/windows-scripts.test.ts. */
export const windowsRunnerScripts = [runSetup, runGrowDisk, runTeardown] as const;

interface SetupOutput {
  computerName: string;
  blankDisks: { path: string; number: number }[];
  smbShare: string;
  smbUser: string;
  oneWay: { iqn: string; chapUsername: string };
  mutual: { iqn: string; chapUsername: string };
  featureWasInstalled: boolean;
  initiatorWasRunning: boolean;
}

/** What teardown needs to undo a run, also from the standalone command. */
export interface TeardownRequest {
  readonly root: string;
  /** This run's tag; "" removes every csiconf* object. */
  readonly tag: string;
  readonly portalAddress: string;
  readonly service: string;
  readonly uninstallFeature: boolean;
  readonly stopInitiator: boolean;
}

/** Runs windows/teardown.ps1 and returns its report lines; rejects when something stayed behind. */
export async function teardownWindows(
  shell: PowerShell,
  request: TeardownRequest,
): Promise<string[]> {
  const lines = await shell.run<string[] | string>(
    runTeardown,
    {
      ScriptPath: win32.join(scriptsDir, "teardown.ps1"),
      Root: request.root,
      Tag: request.tag,
      PortalAddress: request.portalAddress,
      Service: request.service,
      UninstallFeature: request.uninstallFeature,
      StopInitiator: request.stopInitiator,
    },
    { timeoutMs: fixtureTimeoutMs },
  );
  return Array.isArray(lines) ? lines : [lines];
}

/** A real, disposable Windows host, set up by windows/setup.ps1 (see docs/guides/verifying-on-windows.md). */
export async function createWindowsHost(selection: Selection): Promise<ConformanceHost> {
  const secrets = generateSecrets();
  const tag = runTag();
  const root = selection.scratchRoot;
  const executable = selection.executable ?? "powershell.exe";
  const admin = createPowerShell({ executable: fixtureExecutable });
  const teardownRequest = (output: SetupOutput | undefined): TeardownRequest => ({
    root,
    tag,
    portalAddress: selection.portalAddress,
    service: selection.stoppableService,
    uninstallFeature: output !== undefined && !output.featureWasInstalled,
    stopInitiator: output !== undefined && !output.initiatorWasRunning,
  });
  let output: SetupOutput;
  try {
    output = await admin.run<SetupOutput>(
      runSetup,
      {
        ScriptPath: win32.join(scriptsDir, "setup.ps1"),
        Root: root,
        Tag: tag,
        DiskBytes: GiB,
        DiskCount: 2,
        LunBytes: GiB,
        SmbPassword: secrets.smbPassword,
        ChapSecret: secrets.chapSecret,
        MutualTargetChapSecret: secrets.mutualTargetChapSecret,
        MutualSecret: secrets.mutualSecret,
        Service: selection.stoppableService,
      },
      { timeoutMs: fixtureTimeoutMs },
    );
  } catch (error) {
    // A half-made setup is undone before the failure is reported.
    await teardownWindows(admin, teardownRequest(undefined)).catch(() => undefined);
    await admin.close();
    throw error;
  }
  const scratchRoot = win32.join(root, "scratch");
  mkdirSync(scratchRoot, { recursive: true });
  const diskPaths = new Map(output.blankDisks.map((d) => [d.number, d.path]));
  const share = `\\\\${output.computerName}\\${output.smbShare}`;
  return {
    kind: "windows",
    shellOptions: { executable },
    pathStyle: "windows",
    scratchRoot,
    filesystemOptions: {},
    smbOptions: {},
    iscsiOptions: {},
    blankDisks: output.blankDisks.map((d) => d.number),
    blankDiskBytes: GiB,
    smb: {
      remotePath: share,
      subPath: `${share}\\pvc-1`,
      username: output.smbUser,
      password: secrets.smbPassword,
      encryption: true,
    },
    iscsi: {
      portal: { targetAddress: selection.portalAddress, targetPort: 3260 },
      oneWay: { ...output.oneWay, chapSecret: secrets.chapSecret, lunBytes: GiB },
      mutual: { ...output.mutual, chapSecret: secrets.mutualTargetChapSecret, lunBytes: GiB },
      mutualSecret: secrets.mutualSecret,
    },
    stoppableService: selection.stoppableService,
    // A VHDX holds at most 64 TiB, far below 2^53 bytes (8 PiB).
    hugeDisk: undefined,
    async growDisk(diskNumber, bytes) {
      const path = diskPaths.get(diskNumber);
      if (path === undefined) throw new Error(`Disk ${diskNumber} was not made by setup.ps1.`);
      const after = await admin.run<number>(
        runGrowDisk,
        {
          ScriptPath: win32.join(scriptsDir, "grow-disk.ps1"),
          Root: root,
          Path: path,
          Bytes: bytes,
        },
        { timeoutMs: fixtureTimeoutMs },
      );
      diskPaths.delete(diskNumber);
      diskPaths.set(after, path);
      return after;
    },
    volumeFilePath: (volumeId, relative) => win32.join(volumeId, relative),
    cmdletCalls: () => undefined,
    async teardown() {
      try {
        await teardownWindows(admin, teardownRequest(output));
      } finally {
        await admin.close();
      }
    },
  };
}
