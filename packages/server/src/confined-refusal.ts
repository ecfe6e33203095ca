import { isCsiProxyError, type CsiProxyError } from "@csi-proxy/exec";

const mark = Symbol("csi-proxy-server.confinedRefusal");

/**
 * Marks a refusal by the caller's confinement (a path or a mount that leads outside its
 * folders), so the guard audits it and answers as a paths denial; any other PERMISSION_DENIED
 * (a share refusing credentials) reaches the caller as it is.
 */
export function confinedRefusal(error: CsiProxyError): CsiProxyError {
  Object.defineProperty(error, mark, { value: true });
  return error;
}

/** Whether `error` is a {@link confinedRefusal}. */
export function isConfinedRefusal(error: unknown): boolean {
  return isCsiProxyError(error) && (error as unknown as Record<symbol, unknown>)[mark] === true;
}

/** Runs `work`, marking a PERMISSION_DENIED it throws as the confinement's. */
export async function confined<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isCsiProxyError(error) && error.code === "PERMISSION_DENIED") throw confinedRefusal(error);
    throw error;
  }
}
