// The Win32 suite's client: runs in Windows Node (node.exe under Wine), never imports the
// server's code, and talks to the pipes the way an upstream client does (grpc-js over
// \\.\pipe\..., raw bytes, raw HTTP/2) or the way Windows tools inspect them (koffi calls into
// kernel32/advapi32). Usage: node.exe driver.mjs <command> <input.json> <output.json>.
import { readFileSync, writeFileSync } from "node:fs";
import { connect as connectHttp2 } from "node:http2";
import { createRequire } from "node:module";
import { connect as connectNet } from "node:net";

const require = createRequire(import.meta.url);
const [command = "", inputFile = "", outputFile = ""] = process.argv.slice(2);
const input = inputFile === "" ? {} : JSON.parse(readFileSync(inputFile, "utf8"));

const GENERIC_READ = 0x80000000;
const GENERIC_WRITE = 0x40000000;
const READ_CONTROL = 0x20000;
const OPEN_EXISTING = 3;
const SE_KERNEL_OBJECT = 6;
const DACL_SECURITY_INFORMATION = 4;
const PIPE_ACCESS_DUPLEX = 0x3;
const FILE_FLAG_FIRST_PIPE_INSTANCE = 0x80000;
const INVALID_HANDLE_VALUE = -1;

let win32;
function kernel() {
  if (win32 !== undefined) return win32;
  const koffi = require("koffi");
  const k32 = koffi.load("kernel32.dll");
  const advapi = koffi.load("advapi32.dll");
  win32 = {
    CreateFileW: k32.func(
      "intptr_t __stdcall CreateFileW(const char16_t *name, uint32_t access, uint32_t share, void *sa, uint32_t disposition, uint32_t flags, intptr_t template)",
    ),
    CreateNamedPipeW: k32.func(
      "intptr_t __stdcall CreateNamedPipeW(const char16_t *name, uint32_t openMode, uint32_t pipeMode, uint32_t maxInstances, uint32_t outSize, uint32_t inSize, uint32_t timeout, void *sa)",
    ),
    CloseHandle: k32.func("int32_t __stdcall CloseHandle(intptr_t handle)"),
    GetLastError: k32.func("uint32_t __stdcall GetLastError()"),
    LocalFree: k32.func("void * __stdcall LocalFree(void *mem)"),
    GetSecurityInfo: advapi.func(
      "uint32_t __stdcall GetSecurityInfo(intptr_t handle, int32_t type, uint32_t info, _Out_ void **owner, _Out_ void **group, _Out_ void **dacl, _Out_ void **sacl, _Out_ void **sd)",
    ),
    ToSddl: advapi.func(
      "int32_t __stdcall ConvertSecurityDescriptorToStringSecurityDescriptorW(void *sd, uint32_t revision, uint32_t info, _Out_ char16_t **text, _Out_ uint32_t *length)",
    ),
  };
  return win32;
}

/** Opens `name` as a client; `{ handle }` or `{ error }` (GetLastError: 2 absent, 231 busy). */
function openPipe(name, access) {
  const k = kernel();
  const handle = Number(k.CreateFileW(name, access, 0, null, OPEN_EXISTING, 0, 0));
  if (handle === INVALID_HANDLE_VALUE || handle === 0) return { error: Number(k.GetLastError()) };
  return { handle };
}

/** Each name: "present" (a client could open an instance), "busy", or "absent" with the error. */
function probe({ names }) {
  const k = kernel();
  const result = {};
  for (const name of names) {
    const opened = openPipe(name, GENERIC_READ | GENERIC_WRITE);
    if (opened.handle !== undefined) {
      k.CloseHandle(opened.handle);
      result[name] = "present";
    } else result[name] = opened.error === 231 ? "busy" : `absent:${opened.error}`;
  }
  return result;
}

/** Each name's DACL as SDDL, read from the open pipe with GetSecurityInfo. */
function dacl({ names }) {
  const k = kernel();
  const result = {};
  for (const name of names) {
    const opened = openPipe(name, READ_CONTROL);
    if (opened.handle === undefined) {
      result[name] = `open failed: ${opened.error}`;
      continue;
    }
    try {
      const sd = [null];
      const status = Number(
        k.GetSecurityInfo(
          opened.handle,
          SE_KERNEL_OBJECT,
          DACL_SECURITY_INFORMATION,
          null,
          null,
          null,
          null,
          sd,
        ),
      );
      if (status !== 0) {
        result[name] = `GetSecurityInfo failed: ${status}`;
        continue;
      }
      const text = [null];
      const ok = Number(k.ToSddl(sd[0], 1, DACL_SECURITY_INFORMATION, text, null));
      result[name] = ok === 0 ? `convert failed: ${Number(k.GetLastError())}` : text[0];
      k.LocalFree(sd[0]);
    } finally {
      k.CloseHandle(opened.handle);
    }
  }
  return result;
}

/** CreateNamedPipeW twice in this process with FILE_FLAG_FIRST_PIPE_INSTANCE: is the second refused? */
function firstInstance({ name }) {
  const k = kernel();
  const create = (flags) => {
    const handle = Number(
      k.CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX | flags, 0, 255, 4096, 4096, 0, null),
    );
    return { handle, error: handle === INVALID_HANDLE_VALUE ? Number(k.GetLastError()) : 0 };
  };
  const first = create(FILE_FLAG_FIRST_PIPE_INSTANCE);
  const second = create(FILE_FLAG_FIRST_PIPE_INSTANCE);
  for (const { handle } of [first, second])
    if (handle !== INVALID_HANDLE_VALUE) k.CloseHandle(handle);
  return {
    firstCreated: first.handle !== INVALID_HANDLE_VALUE,
    secondRefused: second.handle === INVALID_HANDLE_VALUE,
    secondError: second.error,
  };
}

/** Creates `name` (a squatter, default DACL) and holds it for `holdMs`, then exits. */
async function squat({ name, holdMs, readyFile }) {
  const k = kernel();
  const handle = Number(
    k.CreateNamedPipeW(
      name,
      PIPE_ACCESS_DUPLEX | FILE_FLAG_FIRST_PIPE_INSTANCE,
      0,
      255,
      4096,
      4096,
      0,
      null,
    ),
  );
  writeFileSync(
    readyFile,
    JSON.stringify({ created: handle !== INVALID_HANDLE_VALUE, error: Number(k.GetLastError()) }),
  );
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  return { held: true };
}

let grpcModules;
function grpc() {
  grpcModules ??= { grpc: require("@grpc/grpc-js"), loader: require("@grpc/proto-loader") };
  return grpcModules;
}

/** A grpc-js client of one upstream service, dialled at `unix:\\.\pipe\...`. */
function client({ pipe, protoFile, service }) {
  const { grpc: g, loader } = grpc();
  const definition = loader.loadSync(protoFile, { keepCase: true, longs: String, defaults: true });
  const [pkg, name] = service.split(".");
  const Client = g.loadPackageDefinition(definition)[pkg][name];
  return new Client(`unix:${pipe}`, g.credentials.createInsecure());
}

function call(stub, method, request, { deadlineMs = 20_000 } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const handle = stub[method](
      request,
      { deadline: Date.now() + deadlineMs },
      (error, response) => {
        resolve(
          error
            ? { code: error.code, details: error.details, ms: Date.now() - started }
            : { code: 0, response, ms: Date.now() - started },
        );
      },
    );
    return handle;
  });
}

/** `calls` in order on one channel each: `{ code, details | response }` per call. */
async function calls({ target, calls: list }) {
  const stub = client(target);
  const out = [];
  for (const { method, request } of list) out.push(await call(stub, method, request));
  stub.close();
  return out;
}

/** `channels` clients at once, each `perChannel` calls in parallel; the results' codes counted. */
async function concurrent({ target, channels, perChannel, method, request }) {
  const stubs = Array.from({ length: channels }, () => client(target));
  const results = await Promise.all(
    stubs.flatMap((stub) => Array.from({ length: perChannel }, () => call(stub, method, request))),
  );
  for (const stub of stubs) stub.close();
  const codes = {};
  for (const { code, response } of results) {
    const key = code === 0 ? `ok:${JSON.stringify(response)}` : `code:${code}`;
    codes[key] = (codes[key] ?? 0) + 1;
  }
  return codes;
}

/** `count` calls each cancelled after 0–`maxDelayMs` ms, then one call that must succeed. */
async function cancel({ target, count, maxDelayMs, method, request }) {
  const stub = client(target);
  const codes = {};
  await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise((resolve) => {
          const pending = stub[method](request, (error) => {
            const key = error ? `code:${error.code}` : "ok";
            codes[key] = (codes[key] ?? 0) + 1;
            resolve();
          });
          setTimeout(() => pending.cancel(), index % (maxDelayMs + 1));
        }),
    ),
  );
  const after = await call(stub, method, request);
  stub.close();
  return { codes, after };
}

function rawSocket(pipe, bytes, { waitMs = 200 } = {}) {
  return new Promise((resolve) => {
    const socket = connectNet(pipe);
    let received = 0;
    socket.on("data", (chunk) => (received += chunk.length));
    socket.on("error", (error) => resolve({ error: error.code ?? String(error), received }));
    socket.on("close", () => resolve({ closed: true, received }));
    socket.on("connect", () => {
      if (bytes.length > 0) socket.write(bytes);
      setTimeout(() => socket.destroy(), waitMs);
    });
  });
}

/** Malformed input, each on its own connection: what the server did with it. */
async function malformed({ pipe }) {
  const preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
  const garbage = Buffer.alloc(4096, 0xa5);
  // A SETTINGS frame header claiming 16 MiB of payload, after a valid preface.
  const hugeFrame = Buffer.concat([preface, Buffer.from([0xff, 0xff, 0xff, 0x04, 0, 0, 0, 0, 0])]);
  return {
    connectAndClose: await rawSocket(pipe, Buffer.alloc(0), { waitMs: 0 }),
    halfPreface: await rawSocket(pipe, preface.subarray(0, 10)),
    garbage: await rawSocket(pipe, garbage),
    hugeFrame: await rawSocket(pipe, hugeFrame),
  };
}

/** Raw HTTP/2 clients that vanish mid-call: after sending a request, before reading the answer. */
async function broken({ pipe, path, message, count }) {
  const outcomes = [];
  for (let index = 0; index < count; index += 1) {
    outcomes.push(
      await new Promise((resolve) => {
        const socket = connectNet(pipe);
        const session = connectHttp2("http://localhost", { createConnection: () => socket });
        session.on("error", () => {});
        const stream = session.request({
          ":method": "POST",
          ":path": path,
          "content-type": "application/grpc",
          te: "trailers",
        });
        stream.on("error", () => {});
        const body = Buffer.from(message, "base64");
        const frame = Buffer.alloc(5 + body.length);
        frame.writeUInt32BE(body.length, 1);
        body.copy(frame, 5);
        stream.end(frame);
        // The socket goes away under the session: the server's next write meets a broken pipe.
        setTimeout(() => {
          socket.destroy();
          resolve("destroyed");
        }, index % 3);
      }),
    );
  }
  return outcomes;
}

/** A gRPC request on `session` with these headers; resolves with its grpc-status (or rst code). */
function grpcRequest(session, headers, message) {
  return new Promise((resolve) => {
    const stream = session.request({
      ":method": "POST",
      "content-type": "application/grpc",
      te: "trailers",
      ...headers,
    });
    let status;
    stream.on("response", (h) => (status ??= h["grpc-status"]));
    stream.on("trailers", (h) => (status = h["grpc-status"]));
    stream.on("error", () => {});
    stream.on("close", () =>
      resolve(status === undefined ? `rst:${stream.rstCode}` : `grpc-status:${status}`),
    );
    stream.resume();
    const body = Buffer.from(message, "base64");
    const frame = Buffer.alloc(5 + body.length);
    frame.writeUInt32BE(body.length, 1);
    body.copy(frame, 5);
    stream.end(frame);
  });
}

/**
 * Requests whose :authority is what grpc-go up to 1.56 sends for upstream's pipe target
 * (`\\.\\pipe\\csi-proxy-…`, backslashes doubled), several on one connection: how each ended.
 */
async function authority({ pipe, path, message, authority: value, count }) {
  const session = connectHttp2("http://localhost", { createConnection: () => connectNet(pipe) });
  session.on("error", () => {});
  const outcomes = [];
  for (let index = 0; index < count; index += 1)
    outcomes.push(await grpcRequest(session, { ":path": path, ":authority": value }, message));
  session.close();
  return outcomes;
}

/** `count` pings as fast as they are answered: how many were, and the GOAWAY received. */
async function pings({ pipe, count }) {
  const session = connectHttp2("http://localhost", { createConnection: () => connectNet(pipe) });
  session.on("error", () => {});
  let goaway;
  session.on("goaway", (code, _last, data) => (goaway = { code, data: data?.toString() ?? "" }));
  await new Promise((resolve) => session.once("connect", resolve));
  let acked = 0;
  for (let index = 0; index < count && !session.destroyed; index += 1) {
    const ok = await new Promise((resolve) => {
      try {
        session.ping((error) => resolve(error === null));
      } catch {
        resolve(false);
      }
    });
    if (ok) acked += 1;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const closed = session.destroyed || session.closed;
  session.destroy();
  return { acked, goaway, closed };
}

/**
 * Connects to `pipe`, sends nothing (or, `preface`, the HTTP/2 preface and an empty SETTINGS) and
 * never closes: until the server closes it, or `holdMs` passes.
 */
function silent({ pipe, holdMs, readyFile, preface }) {
  return new Promise((resolve) => {
    const socket = connectNet(pipe);
    const started = Date.now();
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedByServer: false });
    }, holdMs);
    socket.on("error", () => {});
    socket.on("connect", () => {
      if (preface)
        socket.write(
          Buffer.concat([
            Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
            Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
          ]),
        );
      if (readyFile !== undefined) writeFileSync(readyFile, "connected");
    });
    socket.resume();
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ closedByServer: true, afterMs: Date.now() - started });
    });
  });
}

async function hold({ holdMs, readyFile }) {
  if (readyFile !== undefined) writeFileSync(readyFile, "holding");
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  return { held: true };
}

const commands = {
  probe,
  dacl,
  "first-instance": firstInstance,
  squat,
  calls,
  concurrent,
  cancel,
  malformed,
  broken,
  authority,
  pings,
  silent,
  hold,
};

async function main() {
  const run = commands[command];
  if (run === undefined) throw new Error(`unknown command ${command}`);
  return run(input);
}

main().then(
  (result) => {
    writeFileSync(outputFile, JSON.stringify({ ok: true, result }));
    process.exit(0);
  },
  (error) => {
    writeFileSync(outputFile, JSON.stringify({ ok: false, error: String(error?.stack ?? error) }));
    process.exit(1);
  },
);
