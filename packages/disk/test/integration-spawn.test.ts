import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { causeId, failure, useSimHost } from "./sim-setup.js";

// Spawn mode starts one process per call (and each compiles the C# types), so this suite stays small.
describeWithPwsh("Disk on the simulated host (spawn mode)", (pwsh) => {
  const host = useSimHost(pwsh, "spawn");

  it("identifies disks and reads state, one process per call", async () => {
    const h = host();
    h.reset({
      disks: [
        { number: 1, offline: true, page83: { ascii: "Google  persistent-disk-1" } },
        { number: 2, deviceIdError: "Incorrect function." },
      ],
    });
    const { diskIds, errors } = await h.disk.listDiskIds({});
    expect(diskIds.get(1)?.page83).toBe("Google  persistent-disk-1");
    expect(errors.map((e) => e.diskNumber)).toEqual([2]);
    expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: false });
    expect(new Set(h.calls().map((c) => c.pid)).size).toBe(2);
  });

  it("maps a missing disk to NOT_FOUND", async () => {
    const h = host();
    h.reset({});
    const error = await failure(h.disk.getDiskStats({ diskNumber: 9 }));
    expect(error.code).toBe("NOT_FOUND");
    expect(causeId(error)).toBe("CmdletizationQuery_NotFound_Number,Get-Disk");
  });
});
