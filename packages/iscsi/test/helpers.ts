import { isCsiProxyError, type CsiProxyError } from "@csi-proxy/exec";
import { Iscsi } from "../src/iscsi.js";
import { FakeIscsiHost } from "./fake-host.js";

export const iqn = "iqn.2005-10.org.example:vol1";
export const portal = { address: "10.0.0.5", port: 3260 };
export const targetPortal = { targetAddress: "10.0.0.5", targetPort: 3260 };

/** A fake host whose array at 10.0.0.5:3260 serves `vol1` (disks 4 and 2) and an open `vol2`. */
export function setup(): { host: FakeIscsiHost; iscsi: Iscsi } {
  const host = new FakeIscsiHost().serve(portal, [
    { iqn, disks: [4, 2] },
    { iqn: "iqn.2005-10.org.example:vol2", disks: [7] },
  ]);
  return { host, iscsi: new Iscsi({ host }) };
}

/** The CsiProxyError a call rejects with; fails the test if it resolves. */
export async function failure(call: Promise<unknown>): Promise<CsiProxyError> {
  try {
    await call;
  } catch (error) {
    if (isCsiProxyError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}
