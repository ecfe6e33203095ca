import type { CallContext } from "@csi-proxy/exec";

/**
 * What a confined walk may pass that is not a folder of its roots: another volume mounted inside
 * them, or an SMB share a link leads to. Decided by whoever confines the Filesystem (a server
 * knows whose volume or share it is; the Filesystem does not). Every decision gets the calling
 * method's deadline and signal.
 */
export interface Boundaries {
  /**
   * Whether a walk may pass a volume mount point (or a link to a volume's GUID path) inside the
   * roots, to volume `volumeId` (`\\?\Volume{guid}\`). Without it a volume mount point is
   * followed as the folder it appears to be, as upstream does: a Filesystem shared by callers
   * that must not reach each other's volumes supplies it.
   */
  volume?(volumeId: string, context: CallContext): Promise<boolean>;
  /**
   * Whether a pinned link may lead to SMB share path `remotePath` (`\\server\share\...`) through
   * the link at `via` (a host path). `pastVolume`: the link lies inside a volume mounted in the
   * roots, where the volume's users, not the roots' owner, may have made it. Without it no walk
   * passes a share.
   */
  share?(
    remotePath: string,
    via: { readonly path: string; readonly pastVolume: boolean },
    context: CallContext,
  ): Promise<boolean>;
}
