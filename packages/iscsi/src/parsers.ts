import { iqnField } from "./iqn.js";
import { portalField, type Portal } from "./portal.js";

/**
 * Checks a target name (`iqn.`, `eui.` or `naa.` form) with the very rule every `Iscsi` method
 * applies, and returns it; `INVALID_ARGUMENT` otherwise. For a gRPC handler that must refuse a
 * bad request before it calls anything: check the IQN before `addTargetPortal` runs.
 *
 * @example
 * ```ts
 * const iqn = parseIqn(request.iqn);
 * const portal = parseTargetPortal(request.targetPortal);
 * ```
 */
export function parseIqn(value: unknown): string {
  return iqnField({ iqn: value }, "parseIqn");
}

/**
 * Checks a `{ targetAddress, targetPort? }` portal with the rule every `Iscsi` method applies
 * (a host name, IPv4 or IPv6 address; a port from 1 to 65535, 0 or absent meaning 3260) and
 * returns it as `{ address, port }`; `INVALID_ARGUMENT` otherwise.
 */
export function parseTargetPortal(value: unknown): Portal {
  return portalField({ targetPortal: value }, "parseTargetPortal");
}
