import { describe, expect, it } from "vitest";
import { simulatedDetails } from "../src/simulated-details.js";

const root = "/tmp/winsim-AbC123/root";

describe("simulatedDetails", () => {
  it("names the Windows path asked about, not the simulator's host path", () => {
    expect(
      simulatedDetails(
        `Could not remove ${root}/var/lib/kubelet/nope: ENOENT: no such file or directory, lstat '/proc/self/fd/42/nope' (The system cannot find the file specified.)`,
        root,
      ),
    ).toBe(
      "Could not remove C:\\var\\lib\\kubelet\\nope: ENOENT: no such file or directory, lstat 'nope' (The system cannot find the file specified.)",
    );
    expect(
      simulatedDetails(
        `${root}/var/lib/kubelet/my dir is not a mounted folder (${root}/var/lib/kubelet/my dir is no link or mount point).`,
        root,
      ),
    ).toBe(
      "C:\\var\\lib\\kubelet\\my dir is not a mounted folder (C:\\var\\lib\\kubelet\\my dir is no link or mount point).",
    );
    expect(
      simulatedDetails(`Cannot find path '${root}/x/y' because it does not exist.`, root),
    ).toBe("Cannot find path 'C:\\x\\y' because it does not exist.");
    expect(simulatedDetails(`the root itself: ${root}`, root)).toBe("the root itself: C:\\");
  });

  it("leaves alone what is not under the root", () => {
    expect(simulatedDetails(`${root}-other/x and /etc/passwd`, root)).toBe(
      `${root}-other/x and /etc/passwd`,
    );
    expect(simulatedDetails("not an absolute Windows path: var\\lib", root)).toBe(
      "not an absolute Windows path: var\\lib",
    );
  });
});
