import { CsiProxyError } from "@csi-proxy/exec";
import { type Server, ServerCredentials } from "@grpc/grpc-js";
import { defaultEndpointSet } from "../endpoints.js";
import { Connections } from "../wire/connections.js";
import { defaultWireLimits, type WireLimits } from "../wire-limits.js";
import { isPeerGone, type PipeApi, type PipeHandle, Win32Error, WinError } from "./api.js";
import { PipeDuplex } from "./duplex.js";
import { loadWin32PipeApi } from "./win32.js";

/** What {@link servePipe} needs: the pipe's SDDL (see `pipeSddl`) and, in tests, a fake API. */
export interface ServePipeOptions {
  sddl: string;
  api?: PipeApi;
  /** What each connection may hold (wire/guard.ts); {@link defaultWireLimits} by default. */
  limits?: WireLimits;
  /** Where connections count against their endpoint set's limit; a count of its own by default. */
  connections?: Connections;
  /** The endpoint set this pipe belongs to; `default` by default. */
  endpointSet?: string;
}

/** A served pipe. */
export interface PipeListener {
  /** Connects no more clients (an instance already connected is served). */
  stop(): void;
  /** Stops listening and closes the sessions it injected (GOAWAY, then within the grace period). */
  close(): Promise<void>;
}

const PIPE_NAME = /^\\\\\.\\pipe\\[^\\]{1,240}$/;

/**
 * Serves `server` on the named pipe `pipeName` (`\\.\pipe\…`): one instance always waits for a
 * client; each connected instance is handed to grpc-js as an insecure connection (the DACL, not
 * TLS, decides who may connect).
 *
 * @throws CsiProxyError INVALID_ARGUMENT for a malformed name; ALREADY_EXISTS when another
 *   process already owns the name (FILE_FLAG_FIRST_PIPE_INSTANCE), so a squatter cannot sit first.
 */
export function servePipe(
  server: Server,
  pipeName: string,
  options: ServePipeOptions,
): Promise<PipeListener> {
  // Synchronous failures (bad name, squatted pipe) still arrive as a rejection.
  return new Promise((resolve) => {
    resolve(startPipe(server, pipeName, options));
  });
}

function startPipe(server: Server, pipeName: string, options: ServePipeOptions): PipeListener {
  if (!PIPE_NAME.test(pipeName)) {
    throw new CsiProxyError(`${JSON.stringify(pipeName)} is not a \\\\.\\pipe\\<name> path`, {
      code: "INVALID_ARGUMENT",
    });
  }
  const api = options.api ?? loadWin32PipeApi();
  const { sddl } = options;

  let listening: PipeHandle;
  try {
    listening = api.create(pipeName, sddl, true);
  } catch (cause) {
    if (cause instanceof Win32Error && cause.errno === WinError.ERROR_ACCESS_DENIED) {
      throw new CsiProxyError(`named pipe ${pipeName} already exists; another process owns it`, {
        code: "ALREADY_EXISTS",
        cause,
      });
    }
    throw cause;
  }

  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const limits = options.limits ?? defaultWireLimits;
  const counted = options.connections ?? new Connections(limits);
  const endpointSet = options.endpointSet ?? defaultEndpointSet;
  const connections = new Set<PipeDuplex>();
  let closing = false;
  let failures = 0;

  const accept = (pipe: PipeHandle): void => {
    listening = pipe;
    api.connect(pipe).then(
      () => {
        // Connected just as close() ran: that client is turned away, not served.
        if (closing) {
          release(pipe);
          return;
        }
        failures = 0;
        // The next instance exists before this one is handed over, so clients never find none.
        let next: PipeHandle;
        try {
          next = api.create(pipeName, sddl, false);
        } catch (error) {
          // Serve the client we have; listening resumes when it leaves.
          handOver(pipe, () => {
            retry(error);
          });
          return;
        }
        handOver(pipe);
        accept(next);
      },
      (error: unknown) => {
        if (closing) return;
        release(pipe);
        // A client that connected and closed before ConnectNamedPipe ran (ERROR_NO_DATA) is no
        // failure: listen again at once, or a stream of such clients would keep the name empty.
        if (isPeerGone(error)) relisten();
        else retry(error);
      },
    );
  };

  const relisten = (): void => {
    try {
      accept(api.create(pipeName, sddl, false));
    } catch (error) {
      retry(error);
    }
  };

  const handOver = (pipe: PipeHandle, onClose?: () => void): void => {
    const admission = counted.admit(endpointSet);
    // Its endpoint set holds all the connections it may: this client is turned away.
    if (admission === undefined) {
      release(pipe);
      onClose?.();
      return;
    }
    const duplex = new PipeDuplex(api, pipe, limits, admission.held);
    admission.attach(duplex);
    connections.add(duplex);
    duplex.once("close", () => {
      admission.release();
      connections.delete(duplex);
      onClose?.();
    });
    injector.injectConnection(duplex);
  };

  // A failing ConnectNamedPipe or CreateNamedPipeW is retried with backoff rather than ending the endpoint.
  const retry = (error: unknown): void => {
    if (closing) return;
    failures += 1;
    const delay = Math.min(5000, 50 * 2 ** Math.min(failures, 7));
    process.emitWarning(`named pipe ${pipeName}: ${String(error)}; retrying in ${delay} ms`);
    setTimeout(() => {
      if (!closing) relisten();
    }, delay);
  };

  const release = (pipe: PipeHandle): void => {
    for (const step of [() => api.cancel(pipe), () => api.close(pipe)]) {
      try {
        step();
      } catch {
        /* closing anyway */
      }
    }
  };

  accept(listening);

  const stop = (): void => {
    if (closing) return;
    closing = true;
    release(listening);
  };

  return {
    stop,
    close() {
      stop();
      const open = [...connections].map(
        (duplex) =>
          new Promise<void>((resolve) => {
            if (duplex.closed) resolve();
            else duplex.once("close", () => resolve());
          }),
      );
      // Sessions get an HTTP/2 GOAWAY and finish their calls; then each duplex closes its handle.
      injector.destroy();
      return Promise.all(open).then(() => undefined);
    },
  };
}
