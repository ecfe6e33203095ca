import { invalidArgument } from "./errors.js";
import { platformPathStyle, type PathStyle } from "./paths.js";
import { ownField } from "./run-options.js";

/**
 * A group constructor's options: an object (or absent), read as own fields only; else
 * INVALID_ARGUMENT, before anything is created.
 */
export function groupOptions(options: unknown, group: string): (key: string) => unknown {
  if (options === undefined) return () => undefined;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalidArgument(`${group} takes an options object.`);
  }
  return (key) => ownField(options, key);
}

/** An object option (a host layer), else INVALID_ARGUMENT. */
export function objectOption(value: unknown, name: string): object | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidArgument(`${name} must be an object.`);
  }
  return value;
}

/** `"windows"` or `"posix"`, the platform's when absent; else INVALID_ARGUMENT. */
export function pathStyleOption(value: unknown): PathStyle {
  if (value === undefined) return platformPathStyle();
  if (value !== "windows" && value !== "posix") {
    throw invalidArgument(`pathStyle must be "windows" or "posix".`);
  }
  return value;
}
