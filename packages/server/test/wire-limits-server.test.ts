// Issue 33 item 4 and issue 34 item 3 on the real server: what one endpoint set's clients hold
// before authentication is bounded, another set's calls go on, and close() ends every
// connection whatever its client does. Raw HTTP/2 clients (node:http2, raw-grpc.ts), no gRPC library.
import { once } from "node:events";
import { connect as connectHttp2, constants, type ClientHttp2Session } from "node:http2";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server.js";
import type { WireLimits } from "../src/wire-limits.js";
import { FakePipes } from "./pipes-fake.js";
import { RawGrpcClient } from "./raw-grpc.js";

const kubelet = "C:\\var\\lib\\kubelet";
// The client preface and an empty SETTINGS frame (RFC 9113 §3.4, §6.5).
const prefaceAndSettings = Buffer.concat([
  Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);

async function serve(
  pwsh: string,
  limits: Partial<WireLimits>,
  extra: { namedPipes?: { api: FakePipes } } = {},
): Promise<RunningServer> {
  process.env.CSI_WINSIM_PWSH = pwsh;
  return startServer({
    simulate: true,
    policy: "v1-compatible",
    endpointSets: ["default", "other"],
    audit: () => undefined,
    wireLimits: limits,
    ...(extra.namedPipes === undefined
      ? { socketDir: `${process.env.TMPDIR ?? "/tmp"}/csi-limits-${process.pid}-${Date.now()}` }
      : { namedPipes: extra.namedPipes }),
  });
}

function pathExists(endpoint: string, dial?: () => Duplex): Promise<number> {
  const client = new RawGrpcClient(
    endpoint,
    "filesystem/v1/api.proto",
    "v1.Filesystem",
    undefined,
    dial,
  );
  return client
    .call("PathExists", { path: kubelet }, { timeoutMs: 20_000 })
    .then((reply) => reply.code)
    .finally(() => client.close());
}

const request = {
  ":method": "POST",
  ":path": "/v1.Filesystem/PathExists",
  "content-type": "application/grpc",
  te: "trailers",
};

/** An HTTP/2 connection holding `streams` requests it never finishes (HEADERS, no END_STREAM). */
async function holder(dial: () => Duplex, streams: number): Promise<ClientHttp2Session> {
  const session = connectHttp2("http://localhost", { createConnection: dial });
  session.on("error", () => undefined);
  await once(session, "remoteSettings");
  for (let i = 0; i < streams; i += 1) {
    const stream = session.request(request, { endStream: false });
    stream.on("error", () => undefined);
    stream.write(Buffer.from([0, 0, 0, 0, 100]));
  }
  return session;
}

function closedSoon(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describeWithPwsh("what a connection may hold before authentication", (pwsh) => {
  it("an endpoint set at its connection limit gets no more; the other set's calls go on", async () => {
    const server = await serve(pwsh, { maxConnectionsPerSet: 4 });
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    const other = server.endpoints["other/filesystem-v1"] ?? "";
    const held: ClientHttp2Session[] = [];
    try {
      // Four connections of the default set, each holding 8 requests it never finishes.
      for (let i = 0; i < 4; i += 1) held.push(await holder(() => connect(endpoint), 8));
      const fifth = connect(endpoint).resume();
      fifth.on("error", () => undefined);
      expect(await closedSoon(fifth, 2_000)).toBe(true);
      // Counted over every endpoint of the set, not per socket.
      const elsewhere = connect(server.endpoints["disk-v1"] ?? "").resume();
      elsewhere.on("error", () => undefined);
      expect(await closedSoon(elsewhere, 2_000)).toBe(true);
      expect(await pathExists(other)).toBe(0);
      // A place freed is taken again.
      held.shift()?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await pathExists(endpoint)).toBe(0);
    } finally {
      for (const session of held) session.destroy();
      await server.close();
    }
  }, 60_000);

  it("one set's unfinished requests are held up to its budget, the rest refused; the other set's calls go on", async () => {
    const server = await serve(pwsh, { maxHeldRequestsPerSet: 6, requestGraceMs: 200 });
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    const other = server.endpoints["other/filesystem-v1"] ?? "";
    const sessions = [
      await holder(() => connect(endpoint), 0),
      await holder(() => connect(endpoint), 0),
    ];
    try {
      const streams = sessions.flatMap((session) =>
        Array.from({ length: 5 }, () => {
          const stream = session.request(request, { endStream: false });
          stream.on("error", () => undefined);
          stream.write(Buffer.from([0, 0, 0, 0, 100]));
          return stream;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const refused = streams.filter((s) => s.rstCode === constants.NGHTTP2_REFUSED_STREAM);
      expect(refused).toHaveLength(4);
      expect(streams.filter((s) => !s.closed)).toHaveLength(6);
      expect(await pathExists(other)).toBe(0);
      // Whole requests of the flooded set are served too: nothing of theirs is held.
      expect(await pathExists(endpoint)).toBe(0);
    } finally {
      for (const session of sessions) session.destroy();
      await server.close();
    }
  }, 60_000);

  it("the streams one connection may open are SETTINGS_MAX_CONCURRENT_STREAMS; requests left unfinished are reset after the request timeout", async () => {
    const server = await serve(pwsh, { maxStreamsPerConnection: 4, requestTimeoutMs: 500 });
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    const session = await holder(() => connect(endpoint), 0);
    try {
      expect(session.remoteSettings.maxConcurrentStreams).toBe(4);
      const streams = Array.from({ length: 4 }, () => {
        const stream = session.request(request, { endStream: false });
        stream.on("error", () => undefined);
        return stream;
      });
      await Promise.all(streams.map((stream) => once(stream, "close")));
      expect(streams.map((stream) => stream.rstCode)).toEqual(
        Array(4).fill(constants.NGHTTP2_CANCEL),
      );
      // The connection itself serves on.
      expect(await pathExists(endpoint, () => connect(endpoint))).toBe(0);
    } finally {
      session.destroy();
      await server.close();
    }
  }, 60_000);

  it("a connection without a call for the idle timeout gets a GOAWAY and is closed", async () => {
    const server = await serve(pwsh, { idleTimeoutMs: 300 });
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    try {
      const session = await holder(() => connect(endpoint), 0);
      const [code] = (await once(session, "goaway")) as [number];
      expect(code).toBe(constants.NGHTTP2_NO_ERROR);
      await once(session, "close");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("close() ends every connection within the grace period: a silent one, one that ignores the GOAWAY, one reconnecting", async () => {
    const server = await serve(pwsh, { closeGraceMs: 500 });
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    const silent = connect(endpoint).resume();
    silent.on("error", () => undefined);
    const silentClosed = once(silent, "close");
    // Sends the preface and then neither reads on nor closes.
    const deaf = connect(endpoint);
    deaf.on("error", () => undefined);
    deaf.write(prefaceAndSettings);
    expect(await pathExists(endpoint)).toBe(0);
    const started = Date.now();
    const closing = server.close();
    // A client dialling again after the GOAWAY is turned away.
    const again = connect(endpoint);
    const refused = new Promise<boolean>((resolve) => {
      again.once("error", () => resolve(true));
      again.once("connect", () => resolve(false));
    });
    await closing;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await refused).toBe(true);
    await silentClosed;
    // What the server sent, then its end: the deaf client sees them once it reads.
    const deafClosed = once(deaf, "close");
    deaf.resume();
    await deafClosed;
  }, 60_000);

  it("on named pipes (Win32 calls faked): a silent pipe client does not hold close()", async () => {
    const pipes = new FakePipes();
    const server = await serve(pwsh, { closeGraceMs: 500 }, { namedPipes: { api: pipes } });
    const name = server.endpoints["filesystem-v1"] ?? "";
    const silent = pipes.dial(name);
    silent.resume();
    // The next instance is made once the first is handed over.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await pathExists(name, () => pipes.dial(name))).toBe(0);
    const started = Date.now();
    const closing = server.close();
    // A client dialling again at once, as grpc-go does after the GOAWAY: turned away.
    let redialled: Duplex | undefined;
    try {
      redialled = pipes.dial(name);
      redialled.on("error", () => undefined);
      redialled.write(prefaceAndSettings);
      redialled.resume();
    } catch {
      redialled = undefined;
    }
    await closing;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(redialled).toBeUndefined();
    expect(pipes.openHandles()).toEqual([]);
  }, 60_000);
});
