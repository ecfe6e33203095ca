import {
  invalidArgument,
  normalizePath,
  platformPathStyle,
  type PathRuleOptions,
  type PathStyle,
} from "@csi-proxy/exec";

export { platformPathStyle };
export type { PathStyle };

/** Options of {@link normalizeLocalPath}: the path style and the system drive. */
export type LocalPathRules = PathRuleOptions;

/**
 * Validates the absolute path where the share is linked and returns it normalised; throws
 * `INVALID_ARGUMENT` otherwise. The platform path rules every group shares (`normalizePath` in
 * `@csi-proxy/exec`), and never a drive or file-system root, which a link would replace.
 */
export function normalizeLocalPath(value: unknown, rules: LocalPathRules): string {
  const path = normalizePath(value, rules);
  if (path === "/" || /^[A-Z]:\\$/.test(path)) {
    throw invalidArgument(`localPath must not be a root: ${JSON.stringify(value)}`);
  }
  return path;
}

/** The lock key of a local path: case-insensitive on Windows. */
export function localPathKey(path: string, style: PathStyle): string {
  return `path:${style === "windows" ? path.toLowerCase() : path}`;
}
