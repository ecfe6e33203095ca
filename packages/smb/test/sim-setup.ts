import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createPowerShell, isCsiProxyError, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import {
  buildSmbState,
  Simulator,
  translateUncLinks,
  uncToLocal,
  type CallLogEntry,
  type SmbSpec,
} from "@csi-proxy/winsim";
import { afterAll, beforeAll } from "vitest";
import { createNodeSmbLinkHost, Smb, type CsiProxyError, type SmbLinkHost } from "../src/index.js";

export const alice = { username: "CONTOSO\\alice", password: "alice-Secret-1" } as const;
export const bob = { username: "CONTOSO\\bob", password: "bob-Secret-2" } as const;

/** A file server with two shares everyone may use and one only bob may use. */
export const smbSpec: SmbSpec = {
  servers: [
    {
      name: "fs1",
      accounts: { [alice.username]: alice.password, [bob.username]: bob.password },
      shares: ["data", "logs", { name: "private", users: [bob.username] }],
    },
  ],
};

/**
 * The link host a simulator test needs: Linux has no UNC paths, so a link to `\\server\share\x\`
 * points at the share's backing folder, and reading it back gives the UNC form again.
 */
export function simLinkHost(sim: Simulator): SmbLinkHost {
  return translateUncLinks(sim, createNodeSmbLinkHost());
}

/** A simulated host with one shell and one Smb on it, reset per test with {@link SmbSimHost.reset}. */
export interface SmbSimHost {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly smb: Smb;
  /** Restores the scenario's servers, removes mappings, share files and links; clears calls and faults. */
  reset(spec?: SmbSpec): void;
  /** The cmdlets called since the last reset. */
  commands(): string[];
  calls(): CallLogEntry[];
  /** A folder inside a share, created as a real share would already hold it; returns its UNC path. */
  shareFolder(unc: string): string;
  /** A local path in the sandbox, for links. */
  local(name: string): string;
}

/** Creates the host once for a describe block (a session process costs about a second). */
export function useSmbSim(pwsh: string, mode: ExecMode, poolSize = 1): () => SmbSimHost {
  let host: SmbSimHost | undefined;
  beforeAll(async () => {
    const sim = await Simulator.create({ systemDisk: false, smb: smbSpec });
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize }));
    host = {
      sim,
      shell,
      smb: new Smb({ shell, links: simLinkHost(sim), pathStyle: "posix" }),
      reset(spec = smbSpec) {
        sim.update((state) => (state.smb = buildSmbState(spec, sim.root)));
        rmSync(join(sim.dir, "shares"), { recursive: true, force: true });
        rmSync(sim.root, { recursive: true, force: true });
        mkdirSync(sim.root, { recursive: true });
        sim.clearCalls();
        sim.clearFaults();
      },
      commands: () => sim.calls().map((c) => c.command),
      calls: () => sim.calls(),
      shareFolder(unc) {
        mkdirSync(uncToLocal(sim, unc), { recursive: true });
        return unc;
      },
      local: (name) => join(sim.root, name),
    };
  });
  afterAll(async () => {
    await host?.smb.close();
    await host?.shell.close();
    await host?.sim.dispose();
  });
  return () => {
    if (host === undefined) throw new Error("the simulated host is not ready");
    return host;
  };
}

/** The error a call fails with (a CsiProxyError, or the test fails). */
export async function failure(call: Promise<unknown>): Promise<CsiProxyError> {
  try {
    await call;
  } catch (error) {
    if (isCsiProxyError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** The FullyQualifiedErrorId of a failure's PowerShellError cause. */
export function causeId(error: { cause?: unknown }): string | undefined {
  return (error.cause as { record?: { fullyQualifiedErrorId: string } } | undefined)?.record
    ?.fullyQualifiedErrorId;
}
