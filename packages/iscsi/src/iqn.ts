import { invalidArgument } from "@csi-proxy/exec";
import { describe } from "./validate.js";

/** RFC 3720: an iSCSI name is at most 223 bytes. */
const maxIqnLength = 223;
// Loose forms of RFC 3720/3721 names: iqn.yyyy-mm.reversed.domain[:anything], eui.<16 hex>, naa.<16|32 hex>.
const iqnForm = /^iqn\.\d{4}-(0[1-9]|1[0-2])\.[a-z0-9][a-z0-9\-.:_]*$/i;
const euiForm = /^eui\.[0-9a-f]{16}$/i;
const naaForm = /^naa\.(?:[0-9a-f]{16}|[0-9a-f]{32})$/i;

/** Validates a target name (`iqn.`, `eui.` or `naa.` form); throws `INVALID_ARGUMENT`. */
export function iqnField(request: Record<string, unknown>, method: string): string {
  const value = request.iqn;
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(`${method}: iqn must be a non-empty string, got ${describe(value)}.`);
  }
  if (
    value.length > maxIqnLength ||
    !(iqnForm.test(value) || euiForm.test(value) || naaForm.test(value))
  ) {
    throw invalidArgument(
      `${method}: iqn must be an iSCSI name such as iqn.2005-10.org.example:target1 (or eui./naa. form), got ${describe(value)}.`,
    );
  }
  return value;
}

/**
 * The form IQNs are compared in. Windows compares them case-insensitively, and Get-IscsiSession
 * reports them lower-cased (PowerShell/PowerShell#17306).
 */
export function iqnKey(iqn: string): string {
  return iqn.toLowerCase();
}
