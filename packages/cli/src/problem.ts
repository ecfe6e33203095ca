import { isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";
import { oneLine } from "./failure.js";

/**
 * Runs one read of a listing; a library error becomes the row's `problem` (`CODE: message`) so
 * one unreadable disk or portal does not hide the rest. An `ABORTED` (Ctrl-C) ends the listing,
 * as do the codes in `fatal`; anything else is a bug and propagates.
 */
export async function orProblem<T>(
  read: () => Promise<T>,
  fatal: readonly CsiProxyErrorCode[] = [],
): Promise<{ value: T; problem: null } | { value: null; problem: string }> {
  try {
    return { value: await read(), problem: null };
  } catch (error) {
    if (!isCsiProxyError(error) || error.code === "ABORTED" || fatal.includes(error.code)) {
      throw error;
    }
    return { value: null, problem: `${error.code}: ${oneLine(error.message)}` };
  }
}
