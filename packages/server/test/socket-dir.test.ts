import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { secureSocketDir } from "../src/socket-dir.js";

const fresh = () => mkdtempSync(join(tmpdir(), "csi-sockdir-"));
const modeOf = (path: string) => statSync(path).mode & 0o7777;

function refusal(dir: string, groupWritable = false): string {
  try {
    secureSocketDir(dir, groupWritable);
  } catch (error) {
    expect(isCsiProxyError(error) && error.code).toBe("FAILED_PRECONDITION");
    return error instanceof Error ? error.message : "";
  }
  throw new Error(`${dir} was accepted`);
}

function folder(mode: number): string {
  const dir = join(fresh(), "sockets");
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
}

describe("secureSocketDir", () => {
  it("makes a missing folder owner-only, under a sticky world-writable /tmp", () => {
    const dir = join(fresh(), "a", "sockets");
    expect(secureSocketDir(dir, false)).toBe(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it("makes a missing folder and its new parents 0750 when the group is to use the sockets (0660)", () => {
    const base = fresh();
    const dir = join(base, "a", "sockets");
    expect(secureSocketDir(dir, true)).toBe(dir);
    expect(modeOf(dir)).toBe(0o750);
    expect(modeOf(join(base, "a"))).toBe(0o750);
  });

  it("refuses, for 0660 sockets, an existing folder the group cannot pass, and leaves it alone", () => {
    const dir = folder(0o700);
    expect(refusal(dir, true)).toMatch(/the group cannot reach .* \(mode 0700\); chmod it to 0750/);
    expect(modeOf(dir)).toBe(0o700);
  });

  it("takes an existing owner-only folder as it is", () => {
    const dir = folder(0o700);
    expect(secureSocketDir(dir, false)).toBe(dir);
  });

  it("refuses a folder every user may write, and leaves its mode alone", () => {
    const dir = folder(0o777);
    expect(refusal(dir)).toMatch(/writable by every local user \(mode 0777\)/);
    expect(refusal(dir, true)).toMatch(/every local user/);
    expect(modeOf(dir)).toBe(0o777);
  });

  it("allows group-write only when the group is meant to use the sockets (0660)", () => {
    const dir = folder(0o770);
    expect(refusal(dir)).toMatch(/writable by its group \(mode 0770\)/);
    expect(secureSocketDir(dir, true)).toBe(dir);
    chmodSync(dir, 0o1777);
    expect(refusal(dir, true)).toMatch(/every local user/);
  });

  it("refuses a folder that is a link, even to a good folder", () => {
    const target = folder(0o700);
    const link = join(fresh(), "sockets");
    symlinkSync(target, link);
    expect(refusal(link)).toMatch(/is a link/);
    expect(readdirSync(target)).toEqual([]);
  });

  it.runIf(process.geteuid?.() === 0)("refuses a folder another user owns", () => {
    const dir = folder(0o700);
    chownSync(dir, 65534, 65534);
    expect(refusal(dir)).toMatch(/belongs to uid 65534/);
  });

  it("refuses a folder on the way that others may write (no sticky bit), making nothing", () => {
    const parent = folder(0o777);
    const dir = join(parent, "sockets");
    expect(refusal(dir)).toMatch(/on the way to it, is writable by others \(mode 0777\)/);
    expect(existsSync(dir)).toBe(false);
  });

  it("follows links on the way and checks where they lead", () => {
    const good = folder(0o700);
    const via = join(fresh(), "via");
    symlinkSync(good, via);
    expect(secureSocketDir(join(via, "sockets"), false)).toBe(join(via, "sockets"));
    const open = folder(0o777);
    const viaOpen = join(fresh(), "via");
    symlinkSync(open, viaOpen);
    expect(refusal(join(viaOpen, "sockets"))).toMatch(/writable by others/);
    expect(readdirSync(open)).toEqual([]);
  });
});
