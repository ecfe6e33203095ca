import type { ServerOptions as GrpcServerOptions } from "@grpc/grpc-js";
import { cutMiddle } from "./cut-text.js";

/**
 * The largest request message read (256 KiB): the longest valid request, two 32,767-character
 * `\\?\` paths of 3-byte UTF-8 (CreateSymlink), is about 197 KB. A larger one is refused at once
 * with `RESOURCE_EXHAUSTED`, before it is decoded.
 */
export const maxRequestBytes = 256 * 1024;

/**
 * The most characters of a status's details sent (1,024). Details travel in the `grpc-message`
 * trailer; a header block over 64 KiB once compressed cannot be sent, and grpc-js then neither
 * answers nor resets the stream, so the call and every later one on its connection hang; and a
 * grpc-js client takes at most 8 KiB of metadata. 1,024 characters percent-encoded (at most 9
 * bytes each) stay near that cap even for non-ASCII text, and far below the other.
 */
export const maxDetailsLength = 1024;

/** Options of every endpoint's grpc-js `Server`. */
export const grpcServerOptions: GrpcServerOptions = {
  "grpc.max_receive_message_length": maxRequestBytes,
};

/**
 * `details` cut to about {@link maxDetailsLength} characters by leaving out the middle: the start
 * says what failed, the end keeps the upstream text clients match on (upstream-text.ts).
 */
export function boundDetails(details: string): string {
  return cutMiddle(
    details,
    maxDetailsLength,
    (maxDetailsLength * 3) / 4,
    (removed) => ` … (${removed} characters not sent) … `,
  );
}
