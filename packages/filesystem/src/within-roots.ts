import { invalidArgument, normalizePath, pathStyleOption, type PathStyle } from "@csi-proxy/exec";
import { Sandbox } from "./sandbox.js";

/** Options of {@link checkPathWithinRoots}: the rules a {@link Filesystem} with the same options applies. */
export interface PathWithinRootsOptions {
  /** Path rules to apply; the platform's by default. */
  readonly pathStyle?: PathStyle;
  /** Drive that root-relative Windows paths resolve to. Default `C:`. */
  readonly systemDrive?: string;
}

/**
 * Checks, before anything touches the host, that `path` is a valid path lying inside one of
 * `roots` as written, with the rules a `Filesystem` given these roots applies (NTFS case
 * folding, `\\?\` forms, separator boundaries), and returns it normalised. For a gRPC handler
 * that must refuse a request before it calls any group: `INVALID_ARGUMENT` for a malformed path
 * or no roots, `PERMISSION_DENIED` for a path outside them. Links are not resolved here (that
 * needs the host); the Filesystem methods check the resolved path again.
 *
 * @example
 * ```ts
 * const target = checkPathWithinRoots(request.targetPath, ["C:\\var\\lib\\kubelet"], { pathStyle: "windows" });
 * ```
 */
export function checkPathWithinRoots(
  path: unknown,
  roots: readonly string[],
  options: PathWithinRootsOptions = {},
): string {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw invalidArgument("checkPathWithinRoots: roots must name at least one root.");
  }
  const rules = {
    style: pathStyleOption(options.pathStyle),
    ...(options.systemDrive === undefined ? {} : { systemDrive: options.systemDrive }),
  };
  const normalized = normalizePath(path, rules);
  new Sandbox(roots, rules).checkAsWritten(normalized);
  return normalized;
}
