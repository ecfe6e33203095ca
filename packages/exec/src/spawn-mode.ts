import type { Call, Outcome } from "./call.js";
import type { ResolvedConfig } from "./config.js";
import {
  executableNotFound,
  exitFailure,
  killTree,
  launchBuffered,
  startableFile,
} from "./launch.js";
import { decodeBody, FrameReader, hostLine, initLine, newTag, requestLine } from "./protocol.js";

/** Runs each call in its own PowerShell process, as upstream csi-proxy did. */
export class SpawnRunner {
  private readonly live = new Set<ReturnType<typeof launchBuffered>>();

  constructor(private readonly config: ResolvedConfig) {}

  run(call: Call): void {
    const file = startableFile(this.config);
    if (file === undefined) {
      call.complete(executableNotFound(this.config));
      return;
    }
    const tag = newTag();
    const input =
      hostLine +
      initLine(tag, this.config.depth, this.config.modules) +
      requestLine(1, call.script, call.params.wire, true);
    const subprocess = launchBuffered(this.config, file, input);
    this.live.add(subprocess);
    call.markRunning();
    call.onCancel(() => killTree(subprocess));
    void subprocess.then((result) => {
      this.live.delete(subprocess);
      if (!call.isSettled) call.complete(this.outcome(call, tag, result));
    });
  }

  private outcome(
    call: Call,
    tag: string,
    result: Awaited<ReturnType<typeof launchBuffered>>,
  ): Outcome {
    const noise: string[] = [];
    const frames = new Map<string, string>();
    const reader = new FrameReader(
      tag,
      (id, body) => frames.set(id, body),
      (line) => noise.push(line),
    );
    reader.push(result.stdout);
    reader.flush();
    const io = { stderr: result.stderr, stdout: noise.join("\n") };
    try {
      const init = frames.get("0");
      if (init !== undefined) {
        const body = decodeBody(init);
        if (!body.ok)
          return {
            kind: "failure",
            code: "COMMAND_FAILED",
            message: `PowerShell could not start: ${body.error.message}`,
            record: body.error,
            ...io,
          };
      }
      const response = frames.get("1");
      if (response !== undefined) return { kind: "response", body: decodeBody(response), ...io };
    } catch (error) {
      return {
        kind: "failure",
        code: "PARSE_FAILED",
        message: `The response to ${call.script.name} could not be read: ${(error as Error).message}`,
        cause: error,
        ...io,
      };
    }
    return exitFailure(this.config, result, { ...io, scriptName: call.script.name });
  }

  /** Kills every running call's process and waits until all have exited. */
  async close(): Promise<void> {
    const running = [...this.live];
    for (const subprocess of running) killTree(subprocess);
    await Promise.all(running);
  }

  get liveCount(): number {
    return this.live.size;
  }
}
