import { invalidArgument } from "@csi-proxy/exec";
import type { AuthenticationType } from "./types.js";
import { describe, optionalString } from "./validate.js";

/** The exact, case-sensitive `-AuthenticationType` values of Connect-IscsiTarget. */
export type CmdletAuthenticationType = "NONE" | "ONEWAYCHAP" | "MUTUALCHAP";

/** Upstream's AuthenticationType enum → the cmdlet's strings (csi-proxy-api.md §9). */
export const authenticationTypes: Readonly<Record<AuthenticationType, CmdletAuthenticationType>> =
  Object.freeze({ NONE: "NONE", ONE_WAY_CHAP: "ONEWAYCHAP", MUTUAL_CHAP: "MUTUALCHAP" });

/** A login's validated authentication settings. */
export interface LoginAuth {
  readonly authenticationType: CmdletAuthenticationType;
  readonly chapUsername: string;
  readonly chapSecret: string;
}

/**
 * Validates `authType` and the CHAP credentials: both are required for the CHAP types, and
 * must be empty or absent for NONE, so a forgotten `authType` cannot silently drop a secret.
 */
export function loginAuth(request: Record<string, unknown>, method: string): LoginAuth {
  const authType = request.authType;
  if (typeof authType !== "string" || !Object.hasOwn(authenticationTypes, authType)) {
    throw invalidArgument(
      `${method}: authType must be one of ${Object.keys(authenticationTypes).join(", ")}, got ${describe(authType)}.`,
    );
  }
  const authenticationType = authenticationTypes[authType as AuthenticationType];
  const chapUsername = optionalString(request, "chapUsername", method);
  const chapSecret = optionalString(request, "chapSecret", method, true);
  if (authenticationType === "NONE") {
    if (chapUsername !== "" || chapSecret !== "") {
      throw invalidArgument(
        `${method}: chapUsername and chapSecret must be empty when authType is NONE.`,
      );
    }
  } else if (chapUsername === "" || chapSecret === "") {
    throw invalidArgument(
      `${method}: authType ${authType} requires a chapUsername and a chapSecret.`,
    );
  }
  return { authenticationType, chapUsername, chapSecret };
}

/** Validates the node-wide mutual CHAP secret (never quoted in errors). */
export function mutualChapSecret(request: Record<string, unknown>, method: string): string {
  const secret = optionalString(request, "mutualChapSecret", method, true);
  if (secret === "")
    throw invalidArgument(`${method}: mutualChapSecret must be a non-empty string.`);
  return secret;
}
