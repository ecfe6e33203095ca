import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { demoNodeWorld, scenarios, smbShareDir } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import { stageSmbVolume, unstageSmbVolume } from "../src/node.js";
import { useNode } from "./host.js";

// The published demo node: a file server `files.example.com` with the share `projects`.
const node = useNode(() => scenarios.demoNode());
const { shareSubPath: source, smbUser: username, smbPassword: password } = demoNodeWorld;
const staging = () => join(node.kubelet, "plugins", "smb.csi", "pv-2", "globalmount");

it("stages a share: a global mapping, and the staging path leads into the share", async () => {
  const share = smbShareDir(node.sim, "files.example.com", "projects");
  mkdirSync(join(share, "team-a"), { recursive: true });
  mkdirSync(join(staging(), ".."), { recursive: true });
  await stageSmbVolume(node.groups, { source, stagingPath: staging(), username, password });
  expect(node.sim.state().smb?.mappings.map((m) => m.remotePath)).toEqual([
    "\\\\files.example.com\\projects",
  ]);
  writeFileSync(join(staging(), "report.txt"), "from the pod");
  expect(readFileSync(join(share, "team-a", "report.txt"), "utf8")).toBe("from the pod");
  // Never in the call log: the password.
  expect(JSON.stringify(node.sim.calls())).not.toContain(password);
});

it("refuses a wrong password with PERMISSION_DENIED", async () => {
  mkdirSync(join(staging(), ".."), { recursive: true });
  await expect(
    stageSmbVolume(node.groups, { source, stagingPath: staging(), username, password: "wrong" }),
  ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  expect(node.sim.state().smb?.mappings).toEqual([]);
});

it("unstages: removes the link and the mapping, leaves the share's files; twice is fine", async () => {
  const share = smbShareDir(node.sim, "files.example.com", "projects");
  mkdirSync(join(share, "team-a"), { recursive: true });
  writeFileSync(join(share, "team-a", "keep.txt"), "server data");
  mkdirSync(join(staging(), ".."), { recursive: true });
  await stageSmbVolume(node.groups, { source, stagingPath: staging(), username, password });
  await unstageSmbVolume(node.groups, { source, stagingPath: staging() });
  await unstageSmbVolume(node.groups, { source, stagingPath: staging() });
  expect(existsSync(staging())).toBe(false);
  expect(node.sim.state().smb?.mappings).toEqual([]);
  expect(readFileSync(join(share, "team-a", "keep.txt"), "utf8")).toBe("server data");
});
