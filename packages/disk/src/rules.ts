import type { DiskLocation } from "./types.js";

/**
 * Upstream's Location parser (WMI era, with Bus). The Location must split on `:` into at least
 * five segments; each trimmed segment that splits on single spaces into exactly two tokens is a
 * key/value pair (`Adapter`, `Bus`, `Target`, `LUN`, matched case-sensitively; others such as
 * `Port` are ignored). Returns undefined for anything else: null, VHD file paths, PnP location
 * paths, short NVMe forms, or a string with no two-token segment.
 */
export function parseLocation(location: string | null): DiskLocation | undefined {
  if (location === null) return undefined;
  const segments = location.split(":");
  if (segments.length < 5) return undefined;
  const found = { adapter: "", bus: "", target: "", lunId: "" };
  let pairs = 0;
  for (const segment of segments) {
    const tokens = segment.trim().split(" ");
    if (tokens.length !== 2) continue;
    pairs++;
    const [key, value] = tokens as [string, string];
    if (key === "Adapter") found.adapter = value;
    else if (key === "Bus") found.bus = value;
    else if (key === "Target") found.target = value;
    else if (key === "LUN") found.lunId = value;
  }
  return pairs > 0 ? found : undefined;
}

/**
 * Serial numbers as a driver compares them: leading and trailing whitespace removed (GCE pads
 * with 20 blanks, some controllers prefix blanks), null and all-blank become `""`. Upstream
 * passed the raw value through.
 */
export function normalizeSerialNumber(serialNumber: string | null): string {
  return serialNumber === null ? "" : serialNumber.trim();
}
