import { once } from "node:events";
import { type Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import { type PipeApi, type PipeHandle, Win32Error } from "../src/pipes/api.js";
import { PipeDuplex } from "../src/pipes/duplex.js";
import { FakePipes } from "./pipes-fake.js";

const NAME = "\\\\.\\pipe\\csi-proxy-test-v1";

async function connected(fake: FakePipes): Promise<{ pipe: PipeHandle; client: Duplex }> {
  const pipe = fake.create(NAME, "D:P", true);
  const connecting = fake.connect(pipe);
  const client = fake.dial(NAME);
  await connecting;
  return { pipe, client };
}

function collect(stream: Duplex): () => string {
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("PipeDuplex", () => {
  it("writes while a read is pending, and reads what the client sends", async () => {
    const fake = new FakePipes();
    const { pipe, client } = await connected(fake);
    const server = new PipeDuplex(fake, pipe);
    const serverGot = collect(server);
    const clientGot = collect(client);
    await tick();
    // The server's read is outstanding: a synchronous handle would hold this write behind it.
    await new Promise<void>((resolve, reject) =>
      server.write("pong", (error) => (error ? reject(error) : resolve())),
    );
    await tick();
    expect(clientGot()).toBe("pong");
    client.write("ping");
    await tick();
    expect(serverGot()).toBe("ping");
    // Both directions interleaved, many times.
    for (let i = 0; i < 50; i++) {
      client.write(`c${i};`);
      server.write(`s${i};`);
    }
    await tick();
    await tick();
    expect(serverGot()).toBe("ping" + Array.from({ length: 50 }, (_, i) => `c${i};`).join(""));
    expect(clientGot()).toBe("pong" + Array.from({ length: 50 }, (_, i) => `s${i};`).join(""));
  });

  it("ends cleanly, without an error, when the client closes its end (ERROR_BROKEN_PIPE)", async () => {
    const fake = new FakePipes();
    const { pipe, client } = await connected(fake);
    const server = new PipeDuplex(fake, pipe);
    const errors: unknown[] = [];
    server.on("error", (error) => errors.push(error));
    const got = collect(server);
    client.end("last words");
    await once(server, "close");
    expect(got()).toBe("last words");
    expect(errors).toEqual([]);
    expect(fake.openHandles()).toEqual([]);
  });

  it("destroy cancels pending I/O, disconnects the client and closes the handle", async () => {
    const fake = new FakePipes();
    const { pipe, client } = await connected(fake);
    const server = new PipeDuplex(fake, pipe);
    server.resume();
    await tick();
    const clientEnded = once(client, "end");
    client.resume();
    const closed = once(server, "close");
    server.destroy();
    await closed;
    await clientEnded;
    const ops = fake.calls.filter(([, handle]) => handle === pipe).map(([op]) => op);
    expect(ops.slice(-3)).toEqual(["cancel", "disconnect", "close"]);
    expect(fake.openHandles()).toEqual([]);
  });

  it("end() flushes its writes and closes without DisconnectNamedPipe, so the client reads them", async () => {
    const fake = new FakePipes();
    const { pipe, client } = await connected(fake);
    const server = new PipeDuplex(fake, pipe);
    server.resume();
    const got = collect(client);
    const closed = once(server, "close");
    const clientEnded = once(client, "end");
    server.end("GOAWAY");
    await closed;
    await clientEnded;
    expect(got()).toBe("GOAWAY");
    const ops = fake.calls.filter(([, handle]) => handle === pipe).map(([op]) => op);
    expect(ops).not.toContain("disconnect");
    expect(ops.slice(-2)).toEqual(["cancel", "close"]);
  });

  it("fails the stream on any other read error, still closing the handle", async () => {
    const fake = new FakePipes();
    const { pipe } = await connected(fake);
    const failing: PipeApi = {
      ...bindAll(fake),
      read: () => Promise.reject(new Win32Error("ReadFile", 87)),
    };
    const server = new PipeDuplex(failing, pipe);
    const failed = once(server, "error");
    // events.once would reject on the error; the close is what is awaited here.
    const closed = new Promise((resolve) => server.once("close", resolve));
    server.resume();
    const [error] = (await failed) as [Win32Error];
    expect(error.errno).toBe(87);
    await closed;
    expect(fake.openHandles()).toEqual([]);
  });

  it("splits nothing and loses nothing on large writes", async () => {
    const fake = new FakePipes();
    const { pipe, client } = await connected(fake);
    const server = new PipeDuplex(fake, pipe);
    const big = Buffer.alloc(300_000, 7);
    const chunks: Buffer[] = [];
    server.on("data", (chunk: Buffer) => chunks.push(chunk));
    client.end(big);
    await once(server, "end");
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
  });
});

function bindAll(fake: FakePipes): PipeApi {
  return {
    create: fake.create.bind(fake),
    connect: fake.connect.bind(fake),
    read: fake.read.bind(fake),
    write: fake.write.bind(fake),
    cancel: fake.cancel.bind(fake),
    disconnect: fake.disconnect.bind(fake),
    clientProcessId: fake.clientProcessId.bind(fake),
    close: fake.close.bind(fake),
  };
}
