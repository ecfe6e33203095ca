import { describe, expect, it } from "vitest";

/** One error class and the guard that must recognise it across duplicate installs. */
export interface ErrorGuardCase {
  /** The class name, e.g. `DiskNotFoundError`. */
  readonly name: string;
  /** The `Symbol.for` key of its brand. */
  readonly key: string;
  /** The `code` it carries. */
  readonly code: string;
  readonly guard: (value: unknown) => boolean;
  /** An instance from this copy of the module. */
  readonly make: () => Error;
  /** An instance from a second copy of the module (a duplicate install). */
  readonly makeCopy: () => Error;
  /** A plain CsiProxyError with `code` (the guard must not take it for this class). */
  readonly plain: (code: string) => Error;
}

/**
 * The checks every error guard passes: an instance, one from a second copy (where `instanceof`
 * fails), a bare object with the brands; not a plain CsiProxyError of the same code and name, a
 * look-alike or the group's other classes.
 */
export function describeErrorGuards(cases: readonly ErrorGuardCase[]): void {
  describe.each(cases)("the $name guard", (c) => {
    it("accepts an instance", () => {
      expect(c.guard(c.make())).toBe(true);
    });

    it("accepts an instance from a second copy of the module, where instanceof fails", () => {
      const foreign = c.makeCopy();
      expect(foreign).not.toBeInstanceOf(c.make().constructor);
      expect(c.guard(foreign)).toBe(true);
    });

    it("accepts an object whose prototype carries the brands (a copy with its own exec)", () => {
      const brands = { [Symbol.for("csi-proxy.error")]: true, [Symbol.for(c.key)]: true };
      expect(c.guard(Object.create(brands))).toBe(true);
    });

    it("rejects a plain CsiProxyError with the same code and name, and a look-alike", () => {
      const plain = c.plain(c.code);
      Object.defineProperty(plain, "name", { value: c.name });
      expect(c.guard(plain)).toBe(false);
      expect(c.guard({ name: c.name, code: c.code, message: plain.message })).toBe(false);
      expect(c.guard(undefined)).toBe(false);
      expect(c.guard(c.name)).toBe(false);
    });

    it("rejects the group's other error classes", () => {
      for (const other of cases.filter((o) => o.name !== c.name)) {
        expect(c.guard(other.make())).toBe(false);
      }
    });
  });
}
