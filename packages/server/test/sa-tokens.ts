import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

/** The audience and issuer the test servers are started with. */
export const tokenAudience = "csi-proxy-test";
export const tokenIssuer = "https://kubernetes.default.svc.cluster.local";

type Key = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

/** Claims a test may change; the rest are a projected service-account token's. */
export interface TokenClaims {
  readonly namespace?: string;
  readonly name?: string;
  readonly aud?: string;
  readonly iss?: string;
  readonly exp?: number;
}

/**
 * A projected service-account token as kubelet gets it from the API server, signed with `key`
 * (made by the test, never the server's code).
 */
export function signToken(key: Key, kid: string, claims: TokenClaims = {}): Promise<string> {
  const namespace = claims.namespace ?? "kube-system";
  const name = claims.name ?? "csi-node";
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    "kubernetes.io": {
      namespace,
      serviceaccount: { name, uid: "u-1" },
      pod: { name: `${name}-x`, uid: "p-1" },
    },
  })
    .setProtectedHeader({ alg: "RS256", kid })
    .setSubject(`system:serviceaccount:${namespace}:${name}`)
    .setAudience(claims.aud ?? tokenAudience)
    .setIssuer(claims.iss ?? tokenIssuer)
    .setIssuedAt(now - 60)
    .setExpirationTime(claims.exp ?? now + 3600)
    .sign(key);
}

/** A cluster's signing key: its JWKS for the server, and tokens for its service accounts. */
export async function clusterKey(kid = "sa-key-1"): Promise<{
  readonly jwks: { keys: JWK[] };
  readonly key: Key;
  sign(claims?: TokenClaims): Promise<string>;
}> {
  const pair = await generateKeyPair("RS256", { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" }] };
  return { jwks, key: pair.privateKey, sign: (claims) => signToken(pair.privateKey, kid, claims) };
}
