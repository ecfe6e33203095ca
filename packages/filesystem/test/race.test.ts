// A process that swaps a folder of its own for a link to someone else's while calls run: with
// Node's host on Linux every folder on the way is held open, so no call acts outside its roots.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inBatches, whileSwapping } from "@csi-proxy/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";

let dir: string;
let mine: string;
let theirs: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "csi-race-")));
  mine = join(dir, "plugins", "a");
  theirs = join(dir, "plugins", "b");
  mkdirSync(join(mine, "sub"), { recursive: true });
  mkdirSync(theirs, { recursive: true });
  writeFileSync(join(theirs, "precious"), "b's data");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// Measured with a host that acts by name (no openDirectory), 17 to 20 of 300 mkdir calls below
// landed in `theirs`; with Node's host, none.
const swapping = <T>(work: () => Promise<T>) => whileSwapping(join(mine, "sub"), theirs, work);

function theirsUntouched(): void {
  expect(readdirSync(theirs)).toEqual(["precious"]);
}

describe("a folder swapped for a link while calls run (Node's host on Linux)", () => {
  const onLinux = process.platform === "linux";

  it.runIf(onLinux)("mkdir never creates a folder in the other root", async () => {
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [dir] }).confine([mine]);
    const outcomes = await swapping(() =>
      inBatches(300, (i) => fs.mkdir({ path: join(mine, "sub", `x${i}`) })),
    );
    theirsUntouched();
    // Not vacuous: calls went through while the folder was a folder.
    expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
    for (const o of outcomes) {
      if (o.status === "rejected") {
        expect((o.reason as { code: string }).code).toMatch(
          /^(PERMISSION_DENIED|CONFLICT|NOT_FOUND|FAILED_PRECONDITION)$/,
        );
      }
    }
  });

  it.runIf(onLinux)(
    "rmdirContents and rmdir force never remove the other root's files",
    async () => {
      const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [dir] }).confine([mine]);
      const sub = join(mine, "sub");
      const outcomes = await swapping(() =>
        inBatches(200, (i) =>
          i % 2 === 0 ? fs.rmdirContents({ path: sub }) : fs.rmdir({ path: sub, force: true }),
        ),
      );
      expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
      theirsUntouched();
      expect(existsSync(join(theirs, "precious"))).toBe(true);
    },
  );
});

describe("confine", () => {
  it("refuses a link at the last name that leads out of the view's roots", async () => {
    const { symlinkSync } = await import("node:fs");
    symlinkSync(theirs, join(mine, "lnk"), "dir");
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [dir] }).confine([mine]);
    const denied = { code: "PERMISSION_DENIED" };
    await expect(fs.rmdirContents({ path: join(mine, "lnk") })).rejects.toMatchObject(denied);
    await expect(fs.mkdir({ path: join(mine, "lnk") })).rejects.toMatchObject(denied);
    await expect(fs.pathExists({ path: join(mine, "lnk", "precious") })).rejects.toMatchObject(
      denied,
    );
    // The link itself is the caller's: it may look at it and remove it.
    expect(await fs.pathExists({ path: join(mine, "lnk") })).toEqual({ exists: true });
    expect(await fs.isSymlink({ path: join(mine, "lnk") })).toEqual({ isSymlink: true });
    await fs.rmdir({ path: join(mine, "lnk") });
    theirsUntouched();
  });

  it("is refused for roots outside the group's own, and for no roots", () => {
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [mine] });
    expect(() => fs.confine([theirs])).toThrow(
      expect.objectContaining({ code: "PERMISSION_DENIED" }),
    );
    expect(() => fs.confine([])).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => fs.confine(["relative"])).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("shares the group's locks and host, and acts in its own roots", async () => {
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [dir] });
    const view = fs.confine([mine]);
    await view.mkdir({ path: join(mine, "sub", "ok") });
    expect(existsSync(join(mine, "sub", "ok"))).toBe(true);
    await expect(view.mkdir({ path: join(theirs, "x") })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
  });
});
