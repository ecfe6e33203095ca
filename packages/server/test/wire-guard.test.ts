// The connection guard (src/wire/) in front of a plain Node HTTP/2 server, as the transport puts
// it in front of grpc-js: nghttp2 is the decoder that must read the rewritten header blocks.
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import {
  connect as connectHttp2,
  constants,
  createServer as createHttp2Server,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
} from "node:http2";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clientPreface, Flag, frame, FrameType, readHeader } from "../src/wire/frames.js";
import { Connections } from "../src/wire/connections.js";
import { SocketWire } from "../src/wire/socket-wire.js";
import { defaultWireLimits, type WireLimits } from "../src/wire-limits.js";
import { TestEncoder } from "./hpack-encoder.js";

const pipe = String.raw`\\.\\pipe\\csi-proxy-filesystem-v1`;
const socketAuthority = "/run/csi-proxy/csi-proxy-filesystem-v1";

interface Harness {
  readonly path: string;
  readonly requests: IncomingHttpHeaders[];
  readonly sessions: ServerHttp2Session[];
  readonly resets: number[];
  close(): Promise<void>;
}

const open: Harness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

/** A Node HTTP/2 server behind the guard (or, `guarded: false`, reading the socket directly). */
async function serve(limits: Partial<WireLimits> = {}, guarded = true): Promise<Harness> {
  const http2 = createHttp2Server();
  const requests: IncomingHttpHeaders[] = [];
  const sessions: ServerHttp2Session[] = [];
  const resets: number[] = [];
  http2.on("session", (session) => sessions.push(session));
  http2.on("stream", (stream, headers) => {
    requests.push(headers);
    stream.on("close", () => resets.push(stream.rstCode));
    // Answered once the request is whole, as grpc-js answers a unary call.
    stream.on("end", () => {
      if (!stream.closed) stream.respond({ ":status": 200 }, { endStream: true });
    });
    stream.resume();
  });
  const sockets = new Set<Socket>();
  const all = { ...defaultWireLimits, ...limits };
  const connections = new Connections(all);
  const listener: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const admission = connections.admit("default");
    if (admission === undefined) throw new Error("no room");
    const connection = guarded ? new SocketWire(socket, "test", all, admission.held) : socket;
    connection.once("close", () => admission.release());
    http2.emit("connection", connection);
  });
  const path = join(mkdtempSync(join(tmpdir(), "csi-guard-")), "s");
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  const harness: Harness = {
    path,
    requests,
    sessions,
    resets,
    close: async () => {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
  open.push(harness);
  return harness;
}

/** A client writing frames by hand: the preface and an empty SETTINGS first. */
async function rawClient(path: string): Promise<{ socket: Socket; frames: () => Buffer }> {
  const socket = connect(path);
  await once(socket, "connect");
  let received = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on("error", () => undefined);
  socket.write(Buffer.concat([clientPreface, frame(FrameType.SETTINGS, 0, 0, Buffer.alloc(0))]));
  return { socket, frames: () => received };
}

/** The frames in `data`, as [type, flags, streamId, payload]. */
function framesOf(data: Buffer): [number, number, number, Buffer][] {
  const out: [number, number, number, Buffer][] = [];
  for (let at = 0; at + 9 <= data.length;) {
    const header = readHeader(data, at);
    out.push([
      header.type,
      header.flags,
      header.streamId,
      data.subarray(at + 9, at + 9 + header.length),
    ]);
    at += 9 + header.length;
  }
  return out;
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Requests as grpc-go sends them, the client's table cut to 256 octets so that the authority's
// entry is evicted and added again; a long x-n value now and then pushes everything out.
function requestBlocks(count: number): {
  encoder: TestEncoder;
  blocks: Buffer[];
  sent: string[][];
} {
  const encoder = new TestEncoder();
  encoder.resize(256);
  const blocks: Buffer[] = [];
  const sent: string[][] = [];
  const authorities = [pipe, pipe, socketAuthority, "localhost", pipe];
  for (let i = 0; i < count; i += 1) {
    const authority = authorities[i % authorities.length] ?? pipe;
    const filler = i % 7 === 3 ? "x".repeat(150) : `v${i}`;
    const fields = [
      [":method", "POST"],
      [":scheme", "http"],
      [":path", `/v1.Filesystem/Call${i % 3}`],
      [":authority", authority],
      ["content-type", "application/grpc"],
      ["te", "trailers"],
      ["x-n", filler],
    ] as const;
    blocks.push(encoder.encode(fields, i % 5 === 4 ? ["x-n"] : []));
    sent.push([fields[2][1], authority, filler]);
  }
  return { encoder, blocks, sent };
}

/** The header block of request `i` as frames: some split into CONTINUATIONs, one padded. */
function headerFramesOf(i: number, block: Buffer): Buffer {
  const streamId = 2 * i + 1;
  const endStream = Flag.END_STREAM;
  if (i % 4 === 1 && block.length > 4) {
    const cut = Math.floor(block.length / 2);
    return Buffer.concat([
      frame(FrameType.HEADERS, endStream, streamId, block.subarray(0, cut)),
      frame(FrameType.CONTINUATION, Flag.END_HEADERS, streamId, block.subarray(cut)),
    ]);
  }
  if (i % 4 === 2) {
    // PADDED and PRIORITY: a pad length, five priority bytes, the block, three bytes of padding.
    const payload = Buffer.concat([Buffer.from([3, 0, 0, 0, 0, 15]), block, Buffer.alloc(3)]);
    return frame(
      FrameType.HEADERS,
      endStream | Flag.END_HEADERS | Flag.PADDED | Flag.PRIORITY,
      streamId,
      payload,
    );
  }
  return frame(FrameType.HEADERS, endStream | Flag.END_HEADERS, streamId, block);
}

describe("the :authority of grpc-go before 1.57, through the guard", () => {
  it("without the guard, nghttp2 resets every such stream (PROTOCOL_ERROR): what the guard is for", async () => {
    const harness = await serve({}, false);
    const client = await rawClient(harness.path);
    const { blocks } = requestBlocks(1);
    client.socket.write(headerFramesOf(0, blocks[0] ?? Buffer.alloc(0)));
    await until(() =>
      framesOf(client.frames()).some(
        ([type, , streamId]) => type === FrameType.RST_STREAM && streamId === 1,
      ),
    );
    const [, , , payload] =
      framesOf(client.frames()).find(([type]) => type === FrameType.RST_STREAM) ?? [];
    expect(payload?.readUInt32BE(0)).toBe(constants.NGHTTP2_PROTOCOL_ERROR);
    expect(harness.requests).toEqual([]);
    client.socket.destroy();
  });

  it("60 requests, the client's table evicting, split, padded: nghttp2 reads each one right", async () => {
    const harness = await serve();
    const client = await rawClient(harness.path);
    const { blocks, sent } = requestBlocks(60);
    // Each in its own write, and all of them again byte by byte on a second connection.
    for (const [i, block] of blocks.entries()) client.socket.write(headerFramesOf(i, block));
    await until(() => harness.requests.length === 60);
    const seen = harness.requests.map((h) => [h[":path"], h[":authority"], h["x-n"]]);
    const expected = sent.map(([path, authority, filler]) => [
      path,
      (authority ?? "").replace(/[\\/]/g, "_"),
      filler,
    ]);
    expect(seen).toEqual(expected);
    expect(harness.resets.filter((code) => code !== constants.NGHTTP2_NO_ERROR)).toEqual([]);

    const slow = await rawClient(harness.path);
    const all = Buffer.concat(blocks.map((block, i) => headerFramesOf(i, block)));
    for (let at = 0; at < all.length; at += 1) slow.socket.write(all.subarray(at, at + 1));
    await until(() => harness.requests.length === 120);
    expect(harness.requests.slice(60).map((h) => [h[":path"], h[":authority"], h["x-n"]])).toEqual(
      expected,
    );
    client.socket.destroy();
    slow.socket.destroy();
  });

  it("a client whose first authority is accepted is not read further: its blocks pass as sent", async () => {
    const harness = await serve();
    const session = connectHttp2(`http://localhost`, {
      createConnection: () => connect(harness.path),
    });
    session.on("error", () => undefined);
    for (let i = 0; i < 5; i += 1) {
      const stream = session.request({ ":method": "POST", ":path": `/x/${i}` });
      stream.end();
      stream.resume();
      await once(stream, "close");
    }
    expect(harness.requests.map((h) => h[":authority"])).toEqual(Array(5).fill("localhost:80"));
    session.close();
  });
});

/** A Node HTTP/2 client of the harness, and what GOAWAY it got. */
function http2Client(path: string): {
  session: ClientHttp2Session;
  goaway: () => { code: number; data: string } | undefined;
} {
  const session = connectHttp2("http://localhost", { createConnection: () => connect(path) });
  let got: { code: number; data: string } | undefined;
  session.on("goaway", (code: number, _last: number, data?: Buffer) => {
    got = { code, data: data?.toString() ?? "" };
  });
  session.on("error", () => undefined);
  return { session, goaway: () => got };
}

function ping(session: ClientHttp2Session): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      session.ping((error) => resolve(error === null));
    } catch {
      resolve(false);
    }
  });
}

async function roundTrip(session: ClientHttp2Session): Promise<number> {
  const stream = session.request({ ":method": "POST", ":path": "/x" });
  stream.end();
  stream.resume();
  const [headers] = (await once(stream, "response")) as [IncomingHttpHeaders];
  return Number(headers[":status"]);
}

describe("ping floods", () => {
  it("the third ping closer than the minimum interval gets GOAWAY ENHANCE_YOUR_CALM too_many_pings", async () => {
    const harness = await serve({ minPingIntervalMs: 1_000 });
    const { session, goaway } = http2Client(harness.path);
    await roundTrip(session);
    // As grpc-go's server: the first ping after the server's output is free, then two strikes.
    const acked = [];
    for (let i = 0; i < 6; i += 1) acked.push(await ping(session));
    await until(() => goaway() !== undefined && session.destroyed);
    expect(goaway()).toEqual({ code: constants.NGHTTP2_ENHANCE_YOUR_CALM, data: "too_many_pings" });
    expect(acked.slice(0, 3)).toEqual([true, true, true]);
  });

  it("pings at the minimum interval or after each response are never struck", async () => {
    const harness = await serve({ minPingIntervalMs: 100 });
    const { session, goaway } = http2Client(harness.path);
    await once(session, "connect");
    for (let i = 0; i < 5; i += 1) {
      expect(await ping(session)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 130));
    }
    // grpc-go pings after the data of each response (bandwidth estimation), however fast.
    for (let i = 0; i < 30; i += 1) {
      expect(await roundTrip(session)).toBe(200);
      expect(await ping(session)).toBe(true);
    }
    expect(goaway()).toBeUndefined();
    expect(session.destroyed).toBe(false);
    session.close();
  });
});

describe("connections that hold what they never finish", () => {
  it("a connection that never sends the preface (or half of it) is closed after the handshake timeout", async () => {
    const harness = await serve({ handshakeTimeoutMs: 200 });
    const silent = connect(harness.path).resume();
    const half = connect(harness.path).resume();
    half.write(clientPreface.subarray(0, 10));
    const started = Date.now();
    await Promise.all([once(silent, "close"), once(half, "close")]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a request not whole within the request timeout is reset both ways; the connection serves on", async () => {
    const harness = await serve({ requestTimeoutMs: 200, requestGraceMs: 50 });
    const { session } = http2Client(harness.path);
    const held = session.request({ ":method": "POST", ":path": "/held" }, { endStream: false });
    held.write("part of a message");
    held.on("error", () => undefined);
    await once(held, "close");
    expect(held.rstCode).toBe(constants.NGHTTP2_CANCEL);
    await until(() => harness.resets.length === 1);
    expect(harness.resets).toEqual([constants.NGHTTP2_CANCEL]);
    expect(await roundTrip(session)).toBe(200);
    session.close();
  });

  it("requests held past the grace period count against their endpoint set: the rest are refused", async () => {
    const harness = await serve({ requestGraceMs: 100, maxHeldRequestsPerSet: 3 });
    const first = http2Client(harness.path).session;
    const second = http2Client(harness.path).session;
    const open = (session: ClientHttp2Session) => {
      const stream = session.request({ ":method": "POST", ":path": "/held" }, { endStream: false });
      stream.write("part of a message");
      stream.on("error", () => undefined);
      return stream;
    };
    const streams = [open(first), open(first), open(second), open(second), open(second)];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Three held (over both connections), two refused as not processed.
    expect(streams.filter((stream) => stream.closed).map((stream) => stream.rstCode)).toEqual([
      constants.NGHTTP2_REFUSED_STREAM,
      constants.NGHTTP2_REFUSED_STREAM,
    ]);
    // A request finished gives its place back: a new one may be held, and whole ones are served.
    // Which three are held depends on which connection the server reads first (a busy machine
    // can reorder them): finish one of those, never one already refused (its close has passed).
    const held = streams.find((stream) => !stream.closed);
    if (held === undefined) throw new Error("no request is held");
    const finished = once(held, "close");
    held.end();
    await finished;
    const again = open(second);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.closed).toBe(false);
    expect(await roundTrip(first)).toBe(200);
    first.destroy();
    second.destroy();
  });

  it("a header block never finished (no END_HEADERS) ends the connection after the request timeout", async () => {
    const harness = await serve({ requestTimeoutMs: 200, requestGraceMs: 50 });
    const client = await rawClient(harness.path);
    const block = requestBlocks(1).blocks[0] ?? Buffer.alloc(0);
    client.socket.write(frame(FrameType.HEADERS, 0, 1, block.subarray(0, 5)));
    await once(client.socket, "close");
  });

  it("a connection the server closes (GOAWAY) is closed within the grace period though the client never closes it", async () => {
    const harness = await serve({ closeGraceMs: 300 });
    const client = await rawClient(harness.path);
    await until(() => harness.sessions.length === 1);
    const started = Date.now();
    harness.sessions[0]?.close();
    await once(client.socket, "close");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(framesOf(client.frames()).some(([type]) => type === FrameType.GOAWAY)).toBe(true);
  });
});
