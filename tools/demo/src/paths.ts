import { posix, win32 } from "node:path";

/** The kubelet paths a CSI node plugin is handed, for one block and one SMB volume. */
export interface KubeletPaths {
  readonly root: string;
  readonly blockStaging: string;
  readonly blockPodParent: string;
  readonly blockPod: string;
  readonly smbStaging: string;
  readonly smbPodParent: string;
  readonly smbPod: string;
}

export function kubeletPaths(root: string, style: "windows" | "posix"): KubeletPaths {
  const p = style === "windows" ? win32 : posix;
  const plugins = p.join(root, "plugins", "kubernetes.io", "csi");
  const pod = p.join(
    root,
    "pods",
    "8d2c7e1a-4b7f-4e55-9a0e-1f2b3c4d5e6f",
    "volumes",
    "kubernetes.io~csi",
  );
  return {
    root,
    blockStaging: p.join(plugins, "iscsi.csi.example.com", "4f1e0c", "globalmount"),
    blockPodParent: p.join(pod, "pvc-6f1c2a"),
    blockPod: p.join(pod, "pvc-6f1c2a", "mount"),
    smbStaging: p.join(plugins, "smb.csi.example.com", "9a7b2d", "globalmount"),
    smbPodParent: p.join(pod, "pvc-smb-1"),
    smbPod: p.join(pod, "pvc-smb-1", "mount"),
  };
}
