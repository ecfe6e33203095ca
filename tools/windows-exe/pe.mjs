// node.exe from npm is Authenticode-signed; injecting the application invalidates that signature,
// so it is removed first (Node's docs do this with signtool on Windows; here, by the PE format:
// Microsoft's "PE Format", Optional Header Data Directories, the Certificate Table).

/** The certificate table's file offset and size, or undefined when the image carries none. */
export function certificateTable(image) {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const pe = view.getUint32(0x3c, true);
  if (view.getUint32(pe, true) !== 0x00004550) throw new Error("not a PE image");
  const optional = pe + 24;
  const magic = view.getUint16(optional, true);
  if (magic !== 0x20b) throw new Error("not a PE32+ image (a 64-bit executable)");
  const entry = optional + 112 + 4 * 8; // data directory 4: the Certificate Table
  if (view.getUint32(optional + 108, true) <= 4) return undefined;
  const offset = view.getUint32(entry, true);
  const size = view.getUint32(entry + 4, true);
  return size === 0 ? undefined : { entry, offset, size };
}

/** A copy of the image without its signature: the directory entry zeroed, the table cut off. */
export function withoutSignature(image) {
  const table = certificateTable(image);
  if (table === undefined) return Buffer.from(image);
  // The table is the last thing in a signed image; anything after it would not be ours to cut.
  if (table.offset + table.size < image.byteLength - 8)
    throw new Error("the certificate table is not at the end of the image");
  const copy = Buffer.from(image.subarray(0, table.offset));
  copy.fill(0, table.entry, table.entry + 8);
  return copy;
}
