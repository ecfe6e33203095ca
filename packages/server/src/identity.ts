import { readFileSync } from "node:fs";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { CsiProxyError } from "@csi-proxy/exec";

/** Who is calling: a local process without a token, or a Kubernetes service account. */
export type Caller =
  | {
      /** No token: a process on this node that can open the socket. */
      readonly kind: "local";
      /** `local`. */
      readonly name: string;
    }
  | {
      /** A verified Kubernetes service-account token. */
      readonly kind: "serviceAccount";
      /** `serviceaccount:<namespace>/<name>`. */
      readonly name: string;
      /** The service account's namespace. */
      readonly namespace: string;
      /** The service account's name. */
      readonly serviceAccount: string;
    };

/** The token-less caller. */
export const localCaller: Caller = { kind: "local", name: "local" };

/** How bearer tokens are verified (`--jwks-file` or `--jwks-url`, `--token-audience`, `--token-issuer`). */
export interface TokenSettings {
  /** A JWKS file: the cluster's service-account signing keys (`kubectl get --raw /openid/v1/jwks`). */
  readonly jwksFile?: string | undefined;
  /** A JWKS URL, fetched and cached (the cluster's `/openid/v1/jwks` as served to this node). */
  readonly jwksUrl?: string | undefined;
  /** The audience the projected token must be for. */
  readonly audience: string;
  /** The issuer it must come from; any when absent. */
  readonly issuer?: string | undefined;
}

/** A call whose token was refused: answered UNAUTHENTICATED (16), nothing runs. */
export class UnauthenticatedError extends Error {}

// Algorithms Kubernetes signs service-account tokens with (RSA or ECDSA keys); never `none` or HMAC.
const algorithms = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
];
const subjectPattern = /^system:serviceaccount:([^:]+):([^:]+)$/;

function serviceAccountOf(payload: JWTPayload): { namespace: string; name: string } {
  const fromSubject = subjectPattern.exec(payload.sub ?? "");
  const claim = payload["kubernetes.io"] as
    { namespace?: unknown; serviceaccount?: { name?: unknown } } | undefined;
  const namespace = claim?.namespace;
  const name = claim?.serviceaccount?.name;
  if (fromSubject === null)
    throw new UnauthenticatedError("The token is not a service account's (sub).");
  if (
    (namespace !== undefined && namespace !== fromSubject[1]) ||
    (name !== undefined && name !== fromSubject[2])
  ) {
    throw new UnauthenticatedError("The token's kubernetes.io claim does not match its subject.");
  }
  return { namespace: fromSubject[1] ?? "", name: fromSubject[2] ?? "" };
}

/** Turns a call's `authorization` metadata into a {@link Caller}. */
export type Identify = (authorization: readonly unknown[]) => Promise<Caller>;

/**
 * The identification of callers: no `authorization` metadata is the local caller; a bearer
 * token must verify (signature against the JWKS, audience, issuer, expiry) or the call is refused.
 * Without a JWKS, tokens are refused rather than ignored.
 */
export function tokenIdentifier(settings: TokenSettings | undefined): Identify {
  let keys: JWTVerifyGetKey | undefined;
  if (settings?.jwksFile !== undefined) {
    try {
      keys = createLocalJWKSet(JSON.parse(readFileSync(settings.jwksFile, "utf8")) as never);
    } catch (error) {
      throw new CsiProxyError(
        `--jwks-file ${settings.jwksFile}: not a JWKS: ${error instanceof Error ? error.message : String(error)}`,
        { code: "INVALID_ARGUMENT" },
      );
    }
  } else if (settings?.jwksUrl !== undefined) {
    keys = createRemoteJWKSet(new URL(settings.jwksUrl));
  }
  return async (authorization) => {
    if (authorization.length === 0) return localCaller;
    if (authorization.length > 1)
      throw new UnauthenticatedError("More than one authorization header.");
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(String(authorization[0]));
    if (match === null)
      throw new UnauthenticatedError("The authorization header is not a bearer token.");
    if (keys === undefined || settings === undefined) {
      throw new UnauthenticatedError(
        "This server accepts no tokens (no --jwks-file or --jwks-url).",
      );
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1] ?? "", keys, {
        audience: settings.audience,
        ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
        algorithms,
        requiredClaims: ["exp", "sub"],
      }));
    } catch (error) {
      // jose's codes say why (expired, audience, signature) without echoing the token.
      const why =
        error instanceof errors.JOSEError
          ? `${error.code}: ${error.message}`
          : "it does not verify";
      throw new UnauthenticatedError(`The bearer token is refused: ${why}`);
    }
    const account = serviceAccountOf(payload);
    return {
      kind: "serviceAccount",
      name: `serviceaccount:${account.namespace}/${account.name}`,
      namespace: account.namespace,
      serviceAccount: account.name,
    };
  };
}
