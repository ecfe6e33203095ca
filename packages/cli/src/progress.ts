import yoctoSpinner from "yocto-spinner";
import type { CliOutput } from "./io.js";

/** Runs slow work, showing a spinner with `label` meanwhile; the label is `text` of the spinner. */
export type Progress = <T>(label: string, work: () => Promise<T>) => Promise<T>;

/**
 * A spinner on `stderr` only when it is a terminal and the output is not JSON: a script piping
 * `--json` or capturing stderr sees no control characters.
 */
export function createProgress(stderr: CliOutput, enabled: boolean): Progress {
  if (!enabled || stderr.isTTY !== true) return (_label, work) => work();
  return async (label, work) => {
    // handleSignals off: the spinner's own SIGINT handler would exit 130 at once, skipping the
    // cancellation, the ABORTED line and the clean-up that the first Ctrl-C owes the operator.
    const spinner = yoctoSpinner({ text: label, stream: stderr, handleSignals: false }).start();
    try {
      return await work();
    } finally {
      spinner.stop();
    }
  };
}
