import { describe, expect, it } from "vitest";
import { smbMappingStatusCodes, toMappingStatus } from "../src/index.js";

describe("toMappingStatus", () => {
  it("reads every upstream status by name and by code", () => {
    for (const [name, code] of Object.entries(smbMappingStatusCodes)) {
      expect(toMappingStatus(name)).toEqual({ status: name, statusCode: code });
      expect(toMappingStatus(name.toUpperCase())).toEqual({ status: name, statusCode: code });
      expect(toMappingStatus(String(code))).toEqual({ status: name, statusCode: code });
      expect(toMappingStatus(code)).toEqual({ status: name, statusCode: code });
    }
    expect(Object.values(smbMappingStatusCodes)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("keeps an unknown code and marks unknown names", () => {
    expect(toMappingStatus("9")).toEqual({ status: "Unknown", statusCode: 9 });
    expect(toMappingStatus("Hibernating")).toEqual({ status: "Unknown", statusCode: -1 });
    expect(toMappingStatus(null)).toEqual({ status: "Unknown", statusCode: -1 });
  });
});
