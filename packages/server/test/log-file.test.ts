// The audit log's (and the server log's) file: made with its folder, rotated by size with a
// fixed number kept, and never written to again once renamed (issue #35 item 5).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LogFile } from "../src/log-file.js";

const line = (n: number) => `${String(n).padStart(9, "0")}\n`; // 10 bytes

function folder(): string {
  return mkdtempSync(join(tmpdir(), "csi-log-file-"));
}

describe("LogFile", () => {
  // POSIX modes: on Windows both get the parent folder's ACL (docs/audit-log.md).
  it.skipIf(process.platform === "win32")(
    "makes its missing folders owner-only and the file 0600, and appends",
    () => {
      const dir = folder();
      const path = join(dir, "var", "log", "csi", "audit.jsonl");
      const file = new LogFile(path, { maxBytes: 0, keep: 0 });
      file.write(line(1));
      file.write(line(2));
      file.close();
      expect(readFileSync(path, "utf8")).toBe(line(1) + line(2));
      expect(statSync(path).mode & 0o777).toBe(0o600);
      for (const made of ["var", "var/log", "var/log/csi"])
        expect(statSync(join(dir, made)).mode & 0o777).toBe(0o700);
      // An existing file keeps its lines and its mode.
      chmodSync(path, 0o640);
      new LogFile(path, { maxBytes: 0, keep: 0 }).write(line(3));
      expect(readFileSync(path, "utf8")).toBe(line(1) + line(2) + line(3));
      expect(statSync(path).mode & 0o777).toBe(0o640);
    },
  );

  it("rotates before a line would pass the limit, keeping FILE.1 to FILE.<keep>", () => {
    const path = join(folder(), "audit.jsonl");
    const file = new LogFile(path, { maxBytes: 30, keep: 2 });
    for (let n = 1; n <= 10; n += 1) file.write(line(n));
    file.close();
    expect(readFileSync(path, "utf8")).toBe(line(10));
    expect(readFileSync(`${path}.1`, "utf8")).toBe(line(7) + line(8) + line(9));
    expect(readFileSync(`${path}.2`, "utf8")).toBe(line(4) + line(5) + line(6));
    expect(existsSync(`${path}.3`)).toBe(false);
  });

  it("with keep 0, empties the file as klog does with -log_file", () => {
    const path = join(folder(), "server.log");
    const file = new LogFile(path, { maxBytes: 25, keep: 0 });
    for (let n = 1; n <= 3; n += 1) file.write(line(n));
    file.close();
    expect(readFileSync(path, "utf8")).toBe(line(3));
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it("a line larger than the limit goes whole into a file of its own", () => {
    const path = join(folder(), "audit.jsonl");
    const file = new LogFile(path, { maxBytes: 15, keep: 1 });
    file.write(line(1));
    file.write(`${"x".repeat(40)}\n`);
    file.write(line(2));
    file.close();
    expect(readFileSync(`${path}.1`, "utf8")).toBe(`${"x".repeat(40)}\n`);
    expect(readFileSync(path, "utf8")).toBe(line(2));
  });

  it("after a rename (logrotate without a restart) writes to a new file, never the renamed one", () => {
    const path = join(folder(), "audit.jsonl");
    const file = new LogFile(path, { maxBytes: 0, keep: 0 });
    file.write(line(1));
    renameSync(path, `${path}.old`);
    file.write(line(2));
    rmSync(path);
    file.write(line(3));
    file.close();
    expect(readFileSync(`${path}.old`, "utf8")).toBe(line(1));
    expect(readFileSync(path, "utf8")).toBe(line(3));
  });

  it("reopen() (SIGHUP) opens the path anew, and a copy-and-truncate keeps appending at the end", () => {
    const path = join(folder(), "audit.jsonl");
    const file = new LogFile(path, { maxBytes: 1000, keep: 1 });
    file.write(line(1));
    writeFileSync(path, ""); // copytruncate
    file.write(line(2));
    expect(readFileSync(path, "utf8")).toBe(line(2));
    renameSync(path, `${path}.1`);
    file.reopen();
    file.write(line(3));
    file.close();
    expect(readFileSync(`${path}.1`, "utf8")).toBe(line(2));
    expect(readFileSync(path, "utf8")).toBe(line(3));
  });

  it("a rotation that cannot be done is reported and loses no line", () => {
    const dir = folder();
    const path = join(dir, "audit.jsonl");
    const notices: string[] = [];
    const file = new LogFile(path, { maxBytes: 15, keep: 1 }, (message) => notices.push(message));
    file.write(line(1));
    // FILE.1 is a folder with something in it: the rename onto it fails.
    mkdirSync(join(`${path}.1`, "busy"), { recursive: true });
    file.write(line(2));
    file.close();
    expect(readFileSync(path, "utf8")).toBe(line(1) + line(2));
    expect(notices).toEqual([`${path} could not be rotated; it grows past its limit until it can`]);
  });

  it.skipIf(process.platform !== "linux")(
    "a device is written to but never rotated; its write failures reach the caller",
    () => {
      const file = new LogFile("/dev/full", { maxBytes: 1, keep: 1 });
      expect(() => file.write(line(1))).toThrow(/ENOSPC/);
      file.close();
      expect(statSync("/dev/full").isCharacterDevice()).toBe(true);
    },
  );
});
