import { InvalidArgumentError } from "commander";

/** A Windows disk number from the command line: decimal digits only (range checked by the library). */
export function diskNumberArg(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new InvalidArgumentError("expected a disk number, e.g. 3.");
  return Number(value);
}

/** Disk numbers from a variadic argument: commander passes each value with those before it. */
export function diskNumbersArg(value: string, previous: number[] | undefined): number[] {
  return [...(previous ?? []), diskNumberArg(value)];
}

/** An iSCSI portal from the command line: `address`, `address:port`, `[ipv6]` or `[ipv6]:port`. */
export function portalArg(value: string): { targetAddress: string; targetPort?: number } {
  const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value) ?? /^([^:[\]]+):(\d{1,5})$/.exec(value);
  const targetAddress = match === null ? value : match[1];
  const port = match?.[2];
  if (targetAddress === undefined || targetAddress === "" || /[[\]]/.test(targetAddress)) {
    throw new InvalidArgumentError("expected a portal: address, address:port or [ipv6]:port.");
  }
  return port === undefined ? { targetAddress } : { targetAddress, targetPort: Number(port) };
}
