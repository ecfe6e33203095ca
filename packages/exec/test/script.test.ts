import { describe, expect, it } from "vitest";
import { definedScripts, isCsiProxyError, isScript, ps } from "../src/index.js";

describe("ps", () => {
  it("defines a frozen, named script with a stable hash", () => {
    const script = ps("test.named")`param($A) $A`;
    expect(script.name).toBe("test.named");
    expect(script.text).toBe("param($A) $A");
    expect(script.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.isFrozen(script)).toBe(true);
    expect(isScript(script)).toBe(true);
    expect(ps("test.named")`param($A) $A`.hash).toBe(script.hash);
  });

  it("names anonymous scripts after their text", () => {
    const script = ps`Get-Date`;
    expect(script.name).toMatch(/^script-[0-9a-f]{8}$/);
  });

  it("keeps backslashes as written and unescapes only backticks and ${", () => {
    const script = ps("test.raw")`"a\`tb" + 'C:\Windows\n' + \${env:PATH}`;
    expect(script.text).toBe("\"a`tb\" + 'C:\\Windows\\n' + ${env:PATH}");
  });

  it("throws INVALID_ARGUMENT at definition time on any substitution", () => {
    const value = "x";
    const call = () =>
      (ps as unknown as (s: TemplateStringsArray, ...v: unknown[]) => unknown)`a ${value} b`;
    expect(call).toThrow(/substitution/);
    try {
      call();
    } catch (error) {
      expect(isCsiProxyError(error) && error.code).toBe("INVALID_ARGUMENT");
    }
    const named = ps("test.bad") as unknown as (
      s: TemplateStringsArray,
      ...v: unknown[]
    ) => unknown;
    expect(() => named`a ${value}`).toThrow(/test\.bad/);
  });

  it("rejects an empty name", () => {
    expect(() => ps("  ")).toThrow(/non-empty/);
  });

  it("is not fooled by look-alikes", () => {
    expect(isScript({ name: "x", text: "y", hash: "z" })).toBe(false);
    expect(isScript("Get-Disk")).toBe(false);
    expect(isScript(null)).toBe(false);
  });

  it("records every defined script for static checks", () => {
    const script = ps("test.registry")`param($Z) $Z`;
    expect(definedScripts()).toContain(script);
  });
});
