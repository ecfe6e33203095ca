// The restage storm (src/storm.ts) through csi-proxy-server on the simulated node: 32 NodeStage
// sequences at once, iSCSI and SMB mixed, distinct volumes. Each must succeed exactly once (one
// login, one partition, one format, one mapping per volume on the host), none may hang (every
// call has a deadline), and each must have got its own answers: the disk its target holds, the
// volume on that disk mounted at its staging path, its own share behind its staging link.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator, smbShareDir, type CallLogEntry } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  restageStorm,
  startStormNode,
  stormIqn,
  stormShareName,
  stormVolumesPerKind,
  type StormNode,
  type StormRun,
} from "../src/storm.js";

const portal = { target_address: "10.20.0.5", target_port: "3260" };

describeWithPwsh("a restage storm through the server", (pwsh) => {
  let node: StormNode;
  let run: StormRun;
  let sim: Simulator;
  let audit: { decision: string; endpointSet: string }[];
  let sentByStorm = 0;

  beforeAll(async () => {
    node = await startStormNode(pwsh);
    sim = await Simulator.open(node.bin.simulator.dir);
    // A file in each share names it, to read back through the staging link it was mapped at.
    for (let i = 0; i < stormVolumesPerKind; i++) {
      const share = smbShareDir(sim, "files.example.com", stormShareName(i));
      mkdirSync(share, { recursive: true });
      writeFileSync(join(share, `${i}.txt`), "");
    }
    sim.clearCalls();
    run = await restageStorm(node, { concurrent: true });
    sentByStorm = node.sent();
    // A decision's line per call; an allowed call's outcome line (status, duration) comes after.
    audit = readFileSync(node.auditLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { decision?: string; endpointSet: string })
      .filter(
        (line): line is { decision: string; endpointSet: string } => line.decision !== undefined,
      );
  }, 900_000);

  afterAll(async () => {
    await node.close();
  });

  const ok = async (
    kind: "iscsi" | "smb",
    group: string,
    version: string,
    method: string,
    request: object,
  ) => {
    const reply = await node.client(kind, group, version).call(method, request);
    expect(reply.code, `${method}: ${reply.details}`).toBe(0);
    return reply.message;
  };

  it("stages all 32 volumes, each once", () => {
    expect(run.staged).toHaveLength(2 * stormVolumesPerKind);
    for (const kind of ["iscsi", "smb"] as const) {
      const indexes = run.staged.filter((s) => s.kind === kind).map((s) => s.index);
      expect(indexes.sort((a, b) => a - b)).toEqual([...Array(stormVolumesPerKind).keys()]);
    }
    const calls: CallLogEntry[] = sim.calls();
    // What a call acted on: a bound parameter, or the piped object's identity.
    const once = (command: string, on: (c: CallLogEntry) => unknown) => {
      const values = calls.filter((c) => c.command === command).map((c) => JSON.stringify(on(c)));
      expect(values, command).toHaveLength(stormVolumesPerKind);
      expect(new Set(values.map((v) => v.toLowerCase())).size, command).toBe(stormVolumesPerKind);
    };
    once("Connect-IscsiTarget", (c) => c.parameters.NodeAddress);
    once("New-SmbGlobalMapping", (c) => c.parameters.RemotePath);
    once("Initialize-Disk", (c) => [c.parameters.Number, c.target]);
    once("Format-Volume", (c) => [c.parameters, c.target]);
  });

  it("gave each iSCSI sequence its own target's disk and that disk's volume, mounted at its path", async () => {
    const iscsi = run.staged.filter((s) => s.kind === "iscsi");
    expect(new Set(iscsi.map((s) => s.diskNumber)).size).toBe(stormVolumesPerKind);
    expect(new Set(iscsi.map((s) => s.volumeId)).size).toBe(stormVolumesPerKind);
    for (const s of iscsi) {
      const { diskIDs } = await ok("iscsi", "iscsi", "v1alpha2", "GetTargetDisks", {
        target_portal: portal,
        iqn: stormIqn(s.index),
      });
      expect(diskIDs).toEqual([String(s.diskNumber)]);
      const { disk_number } = await ok("iscsi", "volume", "v1", "GetDiskNumberFromVolumeID", {
        volume_id: s.volumeId,
      });
      expect(disk_number).toBe(s.diskNumber);
      const { volume_id } = await ok("iscsi", "volume", "v1", "GetVolumeIDFromTargetPath", {
        target_path: s.staging,
      });
      expect(volume_id).toBe(s.volumeId);
    }
  });

  it("mapped each SMB sequence's own share at its staging path", () => {
    // On the node's disk: the server serves no filesystem call inside a share (a known limit).
    const host = (path: string) => join(node.bin.simulator.root, ...path.slice(3).split("\\"));
    for (const s of run.staged.filter((x) => x.kind === "smb")) {
      const other = (s.index + 1) % stormVolumesPerKind;
      expect(existsSync(join(host(s.staging), `${s.index}.txt`)), s.staging).toBe(true);
      expect(existsSync(join(host(s.staging), `${other}.txt`)), s.staging).toBe(false);
    }
  });

  it("allowed every call of the storm, and audited each once", () => {
    expect(audit.length).toBe(sentByStorm);
    expect(audit.filter((r) => r.decision !== "allow")).toEqual([]);
    expect(new Set(audit.map((r) => r.endpointSet))).toEqual(new Set(["iscsi", "smb"]));
  });
});
