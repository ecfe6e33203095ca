import { isCsiProxyError, type CsiProxyError } from "./errors.js";

/**
 * Brands an error class's prototype with `Symbol.for(key)` and returns the guard for it. The
 * guard works across duplicate installs (two copies of a package in `node_modules`), where
 * `instanceof` fails, because `Symbol.for` gives every copy the same symbol. Use a key unique to
 * the class, e.g. `csi-proxy.disk.DiskNotFoundError`; call once per class, right after it.
 *
 * @example
 * ```ts
 * class QuotaError extends CsiProxyError {}
 * const quotaGuard = brandedGuard(QuotaError, "my-driver.QuotaError");
 * export function isQuotaError(value: unknown): value is QuotaError {
 *   return quotaGuard(value);
 * }
 * ```
 */
export function brandedGuard<T extends CsiProxyError>(
  errorClass: { readonly prototype: T },
  key: string,
): (value: unknown) => value is T {
  const brand = Symbol.for(key);
  Object.defineProperty(errorClass.prototype, brand, { value: true });
  return (value: unknown): value is T =>
    isCsiProxyError(value) && (value as { [brand]?: unknown })[brand] === true;
}
