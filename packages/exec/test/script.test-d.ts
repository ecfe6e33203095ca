import { expectTypeOf, test } from "vitest";
import { ps, type Script } from "../src/index.js";

test("a script is a Script and interpolation does not type-check", () => {
  expectTypeOf(ps`Get-Disk`).toEqualTypeOf<Script>();
  expectTypeOf(ps("disk.get")`Get-Disk`).toEqualTypeOf<Script>();
  const value = "x";
  // @ts-expect-error substitutions are typed `never`
  ps`Get-Disk -Number ${value}`;
  // @ts-expect-error also in the named form
  ps("disk.get")`Get-Disk -Number ${value}`;
});
