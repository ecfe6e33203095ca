/** A group method called by name: `(request, options)`. */
export type MethodCall = (request?: unknown, options?: unknown) => Promise<unknown>;

/**
 * An instance's public methods, read from its class prototype so a method added later is covered
 * without editing the test; `close` and names in `hidden` (TS `private` members) are left out.
 */
export function publicMethods(
  instance: object,
  hidden: ReadonlySet<string | undefined> = new Set(),
): [string, MethodCall][] {
  const proto = Object.getPrototypeOf(instance) as object;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== "constructor" && name !== "close" && !hidden.has(name))
    .flatMap((name): [string, MethodCall][] => {
      const value = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      return typeof value === "function" ? [[name, (value as MethodCall).bind(instance)]] : [];
    });
}

/** A promise and the function that settles it, for holding a call open at a chosen point. */
export function gate<T = void>(): { opened: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

/** Call options every method must refuse with INVALID_ARGUMENT before it touches the host. */
export const badCallOptions: readonly unknown[] = Object.freeze([
  { timeout: 5 },
  { signal: {} },
  { timeoutMs: 0 },
  { timeoutMs: 1.5 },
  { deadline: Number.NaN },
  { deadline: "soon" },
  "x",
  null,
]);
