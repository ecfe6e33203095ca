import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
  type BigIntStats,
} from "node:fs";
import { dirname } from "node:path";

/** How a {@link LogFile} rotates. */
export interface Rotation {
  /** Rotate before a write would take the file past this many bytes; 0 never rotates. */
  readonly maxBytes: number;
  /** Rotated files kept, `FILE.1` (newest) to `FILE.<keep>`; 0 empties the file instead (klog's way). */
  readonly keep: number;
}

/** What a {@link LogFile} reports that is not a write failure (a rotation that could not be done). */
export type LogFileNotice = (message: string, error: unknown) => void;

const sameFile = (a: BigIntStats, b: BigIntStats) => a.ino === b.ino && a.dev === b.dev;

/**
 * A file lines are appended to, one synchronous `write(2)` each, so a line is in the kernel's
 * hands when `write` returns. Its folder is made owner-only (0700) when missing and the file 0600
 * (POSIX modes: Windows gives both the parent folder's ACL). Before each write it checks that its
 * path still names the open file: renamed or removed (logrotate without a restart), it is opened
 * anew there, so a renamed file is never written to again; and it rotates by size.
 */
export class LogFile {
  #fd: number;
  #opened: BigIntStats;

  /** Opens (creating it and its folder when missing) `path` for appending. */
  constructor(
    readonly path: string,
    private readonly rotation: Rotation,
    private readonly notice: LogFileNotice = () => undefined,
  ) {
    [this.#fd, this.#opened] = this.#open();
  }

  /** Appends `text` (whole lines); throws what the system says when it cannot (ENOSPC, EIO, ...). */
  write(text: string): void {
    const bytes = Buffer.from(text);
    const current = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    if (current === undefined || !sameFile(current, this.#opened)) this.reopen();
    else if (this.#rotates(Number(current.size), bytes.length)) this.#rotate();
    for (let done = 0; done < bytes.length;) done += writeSync(this.#fd, bytes, done);
  }

  /** Opens `path` anew (SIGHUP: after a rename, the new file), then closes the old one. */
  reopen(): void {
    const [fd, opened] = this.#open();
    closeSync(this.#fd);
    [this.#fd, this.#opened] = [fd, opened];
  }

  /** Closes the file. */
  close(): void {
    closeSync(this.#fd);
  }

  #open(): [number, BigIntStats] {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, "a", 0o600);
    return [fd, fstatSync(fd, { bigint: true })];
  }

  // Only a regular file rotates (not /dev/stdout, a FIFO, ...), and never to leave it empty.
  #rotates(size: number, adding: number): boolean {
    const { maxBytes } = this.rotation;
    return maxBytes > 0 && size > 0 && size + adding > maxBytes && this.#opened.isFile();
  }

  #rotate(): void {
    const { keep } = this.rotation;
    try {
      if (keep === 0) {
        ftruncateSync(this.#fd, 0);
        return;
      }
      for (let n = keep - 1; n >= 1; n -= 1) {
        const from = `${this.path}.${n}`;
        if (statSync(from, { throwIfNoEntry: false }) !== undefined)
          renameSync(from, `${this.path}.${n + 1}`);
      }
      renameSync(this.path, `${this.path}.1`);
    } catch (error) {
      // A rotation that cannot be done (another process holds the file on Windows) loses no line.
      this.notice(`${this.path} could not be rotated; it grows past its limit until it can`, error);
      return;
    }
    this.reopen();
  }
}
