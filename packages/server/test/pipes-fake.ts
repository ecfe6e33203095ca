// An in-memory PipeApi: each instance pairs the server's overlapped calls with a client Duplex,
// pending reads and writes independent as with FILE_FLAG_OVERLAPPED.
import { Duplex } from "node:stream";
import { type PipeApi, type PipeHandle, Win32Error, WinError } from "../src/pipes/api.js";

interface Deferred<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

interface Instance {
  readonly handle: PipeHandle;
  readonly name: string;
  readonly sddl: string;
  state: "listening" | "connected" | "disconnected" | "closed";
  connectWaiter: (Deferred<void> & { syscall: string }) | undefined;
  /** Client → server bytes not read yet. */
  inbound: Buffer[];
  readWaiter: (Deferred<Buffer> & { size: number }) | undefined;
  clientEnded: boolean;
  client: Duplex | undefined;
}

/** Every call the server made, in order, for close-semantics assertions. */
export type Call = readonly [op: keyof PipeApi, handle: PipeHandle | string];

export class FakePipes implements PipeApi {
  readonly #instances = new Map<PipeHandle, Instance>();
  #next = 100;
  readonly calls: Call[] = [];
  /** Names some other process created first (FILE_FLAG_FIRST_PIPE_INSTANCE must then fail). */
  readonly squatted = new Set<string>();

  create(name: string, sddl: string, first: boolean): PipeHandle {
    this.calls.push(["create", name]);
    const exists =
      this.squatted.has(name) ||
      [...this.#instances.values()].some((i) => i.name === name && i.state !== "closed");
    if (first && exists) throw new Win32Error("CreateNamedPipeW", WinError.ERROR_ACCESS_DENIED);
    const handle = this.#next++;
    this.#instances.set(handle, {
      handle,
      name,
      sddl,
      state: "listening",
      inbound: [],
      clientEnded: false,
      connectWaiter: undefined,
      readWaiter: undefined,
      client: undefined,
    });
    return handle;
  }

  connect(pipe: PipeHandle): Promise<void> {
    this.calls.push(["connect", pipe]);
    const instance = this.#live(pipe, "ConnectNamedPipe");
    return new Promise((resolve, reject) => {
      instance.connectWaiter = { resolve, reject, syscall: "ConnectNamedPipe" };
    });
  }

  read(pipe: PipeHandle, size: number): Promise<Buffer> {
    const instance = this.#live(pipe, "ReadFile");
    if (instance.readWaiter !== undefined) throw new Error("two reads pending on one instance");
    return new Promise((resolve, reject) => {
      instance.readWaiter = { resolve, reject, size };
      this.#pump(instance);
    });
  }

  write(pipe: PipeHandle, data: Uint8Array): Promise<number> {
    const instance = this.#live(pipe, "WriteFile");
    if (instance.state !== "connected" || instance.client === undefined || instance.clientEnded) {
      return Promise.reject(new Win32Error("WriteFile", WinError.ERROR_NO_DATA));
    }
    instance.client.push(Buffer.from(data));
    return Promise.resolve(data.length);
  }

  cancel(pipe: PipeHandle): void {
    this.calls.push(["cancel", pipe]);
    this.#abort(pipe);
  }

  #abort(pipe: PipeHandle): void {
    const instance = this.#instances.get(pipe);
    if (instance === undefined) return;
    const aborted = (syscall: string) => new Win32Error(syscall, WinError.ERROR_OPERATION_ABORTED);
    instance.readWaiter?.reject(aborted("ReadFile"));
    instance.readWaiter = undefined;
    instance.connectWaiter?.reject(aborted("ConnectNamedPipe"));
    instance.connectWaiter = undefined;
  }

  disconnect(pipe: PipeHandle): void {
    this.calls.push(["disconnect", pipe]);
    const instance = this.#instances.get(pipe);
    if (instance === undefined) return;
    instance.state = "disconnected";
    instance.inbound = [];
    instance.client?.push(null);
  }

  /** The client pid a connected instance reports: this process, as the client lives here. */
  clientProcessId(pipe: PipeHandle): number | undefined {
    return this.#instances.get(pipe)?.state === "connected" ? process.pid : undefined;
  }

  close(pipe: PipeHandle): void {
    this.calls.push(["close", pipe]);
    const instance = this.#instances.get(pipe);
    if (instance === undefined || instance.state === "closed") return;
    this.#abort(pipe);
    // Closing without a disconnect leaves what was written readable, then the client sees the end.
    instance.client?.push(null);
    instance.state = "closed";
  }

  /** Handles created and not closed. */
  openHandles(): PipeHandle[] {
    return [...this.#instances.values()].filter((i) => i.state !== "closed").map((i) => i.handle);
  }

  /** The SDDL each instance of `name` was created with. */
  sddlOf(name: string): string[] {
    return [...this.#instances.values()].filter((i) => i.name === name).map((i) => i.sddl);
  }

  /** Whether an instance of `name` waits in ConnectNamedPipe. */
  listening(name: string): boolean {
    return [...this.#instances.values()].some(
      (i) => i.name === name && i.state === "listening" && i.connectWaiter !== undefined,
    );
  }

  /** CreateFileW from a client: the stream of a connected instance, or ERROR_PIPE_BUSY. */
  dial(name: string): Duplex {
    const instance = [...this.#instances.values()].find(
      (i) => i.name === name && i.state === "listening" && i.connectWaiter !== undefined,
    );
    if (instance === undefined) throw new Win32Error("CreateFileW", WinError.ERROR_PIPE_BUSY);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the client stream calls back into the fake
    const fake = this;
    const client = new Duplex({
      allowHalfOpen: false,
      read() {
        /* bytes are pushed by the server's writes */
      },
      write(chunk: Buffer, _encoding, callback) {
        if (instance.state !== "connected") {
          callback(new Win32Error("WriteFile", WinError.ERROR_NO_DATA));
          return;
        }
        instance.inbound.push(chunk);
        fake.#pump(instance);
        callback();
      },
      final(callback) {
        instance.clientEnded = true;
        fake.#pump(instance);
        callback();
      },
      destroy(error, callback) {
        instance.clientEnded = true;
        fake.#pump(instance);
        callback(error);
      },
    });
    instance.client = client;
    instance.state = "connected";
    const waiter = instance.connectWaiter;
    instance.connectWaiter = undefined;
    waiter?.resolve();
    return client;
  }

  /**
   * A client that opens the pipe and closes it before the server's ConnectNamedPipe completes:
   * Windows then fails that ConnectNamedPipe with ERROR_NO_DATA (Wine does too).
   */
  dialAndHangUp(name: string): void {
    const instance = [...this.#instances.values()].find(
      (i) => i.name === name && i.state === "listening" && i.connectWaiter !== undefined,
    );
    if (instance === undefined) throw new Win32Error("CreateFileW", WinError.ERROR_PIPE_BUSY);
    instance.state = "disconnected";
    const waiter = instance.connectWaiter;
    instance.connectWaiter = undefined;
    waiter?.reject(new Win32Error("ConnectNamedPipe", WinError.ERROR_NO_DATA));
  }

  #live(pipe: PipeHandle, syscall: string): Instance {
    const instance = this.#instances.get(pipe);
    if (instance === undefined || instance.state === "closed") {
      throw new Win32Error(syscall, WinError.ERROR_INVALID_HANDLE);
    }
    return instance;
  }

  #pump(instance: Instance): void {
    const waiter = instance.readWaiter;
    if (waiter === undefined) return;
    const head = instance.inbound.shift();
    if (head !== undefined) {
      instance.readWaiter = undefined;
      if (head.length > waiter.size) instance.inbound.unshift(head.subarray(waiter.size));
      waiter.resolve(head.subarray(0, waiter.size));
    } else if (instance.clientEnded || instance.state === "disconnected") {
      instance.readWaiter = undefined;
      waiter.reject(new Win32Error("ReadFile", WinError.ERROR_BROKEN_PIPE));
    }
  }
}
