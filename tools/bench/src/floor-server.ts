// The floor's server, in a process of its own as csi-proxy-server is: GetBIOSSerialNumber answered
// at once, or after a delay (the idle floor: a server that waits as long as a host call does).
// Arguments: the Unix socket path, and the delay in ms (optional). Prints "ready" once bound; a
// line on stdin with a number of ms sets the delay, answered with "delay <ms>"; SIGTERM stops it.
import { createInterface } from "node:readline";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { serviceConstructor } from "./rpc.js";

const socket = process.argv[2];
if (socket === undefined) throw new Error("usage: floor-server <socket> [delayMs]");
let delayMs = Number(process.argv[3] ?? 0);
const control = createInterface({ input: process.stdin });
control.on("line", (line) => {
  delayMs = Number(line);
  process.stdout.write(`delay ${delayMs}\n`);
});
const server = new Server();
server.addService(serviceConstructor("system", "v1alpha1").service, {
  GetBIOSSerialNumber: (_call: unknown, callback: (error: null, reply: object) => void) => {
    if (delayMs > 0) setTimeout(() => callback(null, { serial_number: "" }), delayMs);
    else callback(null, { serial_number: "" });
  },
});
server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), (error) => {
  if (error !== null) throw error;
  process.stdout.write("ready\n");
});
process.once("SIGTERM", () => {
  // stdin, when piped, would keep the process alive.
  control.close();
  process.stdin.destroy();
  server.forceShutdown();
});
