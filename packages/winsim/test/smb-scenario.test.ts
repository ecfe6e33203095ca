import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildScenario,
  localToUnc,
  setSmbMappingStatus,
  setSmbPassword,
  Simulator,
  smbPasswordHash,
  uncToLocal,
  type ScenarioSpec,
} from "../src/index.js";

const spec: ScenarioSpec = {
  smb: {
    servers: [
      {
        name: "FS1",
        accounts: { "CONTOSO\\alice": "alice-pw", "CONTOSO\\bob": "bob-pw" },
        shares: [
          "data",
          { name: "private", users: ["CONTOSO\\bob"] },
          { name: "kerb", computerAccount: true },
        ],
        encryption: false,
      },
    ],
    mappings: [
      { remotePath: "\\\\fs1\\data", user: "contoso\\ALICE" },
      { remotePath: "\\\\fs1\\kerb" },
      { remotePath: "\\\\fs1\\private", user: "CONTOSO\\bob", stale: true, status: "Paused" },
    ],
  },
};

describe("buildSmbState", () => {
  it("stores servers, accounts as password hashes, share lists and mappings", () => {
    const smb = buildScenario(spec, "/sandbox").state.smb;
    expect(smb?.servers).toEqual([
      {
        name: "FS1",
        encryption: false,
        accounts: [
          { user: "CONTOSO\\alice", passwordSha256: smbPasswordHash("alice-pw") },
          { user: "CONTOSO\\bob", passwordSha256: smbPasswordHash("bob-pw") },
        ],
        shares: [
          { name: "data", users: null, computerAccount: false },
          { name: "private", users: ["CONTOSO\\bob"], computerAccount: false },
          { name: "kerb", users: null, computerAccount: true },
        ],
      },
    ]);
    expect(smb?.mappings[0]).toMatchObject({
      remotePath: "\\\\fs1\\data",
      localPath: "",
      status: 0,
      user: "CONTOSO\\alice",
      passwordSha256: smbPasswordHash("alice-pw"),
      requirePrivacy: true,
    });
    // No user: a mapping made without a credential, as the computer account.
    expect(smb?.mappings[1]).toMatchObject({ user: "", passwordSha256: "" });
    expect(smb?.mappings[2]?.status).toBe(1);
    expect(smb?.mappings[2]?.passwordSha256).not.toBe(smbPasswordHash("bob-pw"));
    expect(JSON.stringify(smb)).not.toMatch(/alice-pw|bob-pw/);
  });

  it("rejects a mapping whose user is not an account of its server", () => {
    expect(() =>
      buildScenario(
        {
          smb: { servers: [{ name: "fs1" }], mappings: [{ remotePath: "\\\\fs1\\a", user: "x" }] },
        },
        "/sandbox",
      ),
    ).toThrow(RangeError);
  });
});

describe("SMB helpers", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await Simulator.create(spec);
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it("maps UNC paths to share folders and back, case-insensitively for server and share", () => {
    const local = uncToLocal(sim, "\\\\FS1\\Data\\pv-1\\sub\\");
    expect(local).toBe(join(sim.dir, "shares", "fs1", "data", "pv-1", "sub"));
    expect(uncToLocal(sim, "//fs1/data")).toBe(join(sim.dir, "shares", "fs1", "data"));
    expect(localToUnc(sim, `${local}/`)).toBe("\\\\fs1\\data\\pv-1\\sub");
    expect(localToUnc(sim, "/tmp/elsewhere")).toBeUndefined();
    expect(() => uncToLocal(sim, "C:\\data")).toThrow(RangeError);
    expect(() => uncToLocal(sim, "\\\\?\\C:\\data")).toThrow(RangeError);
  });

  it("changes a password and a mapping status in state.json without writing the password", () => {
    setSmbPassword(sim, "fs1", "contoso\\alice", "new-secret-pw");
    setSmbMappingStatus(sim, "\\\\FS1\\data\\", "Unavailable");
    const smb = sim.state().smb;
    expect(smb?.servers[0]?.accounts[0]?.passwordSha256).toBe(smbPasswordHash("new-secret-pw"));
    expect(smb?.mappings[0]?.status).toBe(6);
    expect(readFileSync(join(sim.dir, "state.json"), "utf8")).not.toContain("new-secret-pw");
    expect(() => setSmbPassword(sim, "fs1", "nobody", "x")).toThrow(RangeError);
    expect(() => setSmbMappingStatus(sim, "\\\\fs1\\none", 0)).toThrow(RangeError);
  });
});
