export declare function certificateTable(
  image: Uint8Array,
): { entry: number; offset: number; size: number } | undefined;
export declare function withoutSignature(image: Uint8Array): Buffer;
