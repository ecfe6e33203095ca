// The floor's server, in a process of its own as csi-proxy-server is: GetBIOSSerialNumber answered
// at once, or after a delay (the idle floor: a server that waits as long as a host call does).
// Arguments: the Unix socket path, and the delay in ms (optional). Prints "ready" once bound;
// SIGTERM stops it.
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { serviceConstructor } from "./rpc.js";

const socket = process.argv[2];
if (socket === undefined) throw new Error("usage: floor-server <socket> [delayMs]");
const delayMs = Number(process.argv[3] ?? 0);
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
process.once("SIGTERM", () => server.forceShutdown());
