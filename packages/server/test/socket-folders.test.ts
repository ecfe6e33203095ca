// Where each endpoint set's sockets live (issue #33 items 8 and 10): no set's folder may hold
// another's, since a deployment mounts a whole folder into a driver's pods; and with
// `--socket-mode 0660` the group the sockets are for can reach them.
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { startBin } from "./harness.js";

const modeOf = (path: string) => statSync(path).mode & 0o777;

describeWithPwsh("socket folders of endpoint sets", (pwsh) => {
  it("serves the default set beside named ones in a folder of its own", async () => {
    const bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      "v1-compatible",
      "--endpoint-set",
      "default",
      "--endpoint-set",
      "a",
    ]);
    try {
      const defaultSocket = bin.ready.endpoints["disk-v1"] ?? "";
      const setSocket = bin.ready.endpoints["a/disk-v1"] ?? "";
      expect(dirname(defaultSocket)).toBe(join(bin.socketDir, "default"));
      expect(dirname(setSocket)).toBe(join(bin.socketDir, "a"));
      // The top folder holds the sets' folders only: mounting one exposes no other.
      expect(readdirSync(bin.socketDir).sort()).toEqual(["a", "default"]);
      for (const socket of Object.values(bin.ready.endpoints)) {
        const folder = dirname(socket);
        for (const other of Object.values(bin.ready.endpoints)) {
          if (dirname(other) !== folder) expect(other.startsWith(`${folder}/`)).toBe(false);
        }
      }
    } finally {
      expect(await bin.stop()).toBe(0);
    }
  });

  it("keeps upstream's layout when the default set is served alone", async () => {
    const bin = await startBin(pwsh, ["--simulate", "--policy", "v1-compatible"]);
    try {
      expect(dirname(bin.ready.endpoints["disk-v1"] ?? "")).toBe(bin.socketDir);
    } finally {
      expect(await bin.stop()).toBe(0);
    }
  });

  it("with --socket-mode 0660, makes the folders the group must pass 0750", async () => {
    const bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      "v1-compatible",
      "--socket-mode",
      "0660",
      "--endpoint-set",
      "a",
    ]);
    try {
      const socket = bin.ready.endpoints["a/disk-v1"] ?? "";
      expect(modeOf(bin.socketDir)).toBe(0o750);
      expect(modeOf(dirname(socket))).toBe(0o750);
      expect(modeOf(socket)).toBe(0o660);
    } finally {
      expect(await bin.stop()).toBe(0);
    }
  });
});
