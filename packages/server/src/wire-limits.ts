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

/**
 * What connections may hold, and for how long, before anything is authenticated: a call is
 * authorised only once its request is whole, so these bound what a caller that never finishes
 * one can keep open, per connection and per endpoint set (README, "Connections").
 */
export interface WireLimits {
  /** Time from accepting a connection to its HTTP/2 client preface (upstream: grpc-go's 120 s). */
  readonly handshakeTimeoutMs: number;
  /** Time from a request's first frame to its last byte (headers and message); then it is reset. */
  readonly requestTimeoutMs: number;
  /** A request not whole this long after its first frame is held, counted in its endpoint set. */
  readonly requestGraceMs: number;
  /** Requests an endpoint set may hold at once, over all its connections; more are refused. */
  readonly maxHeldRequestsPerSet: number;
  /** Open streams per connection, as SETTINGS_MAX_CONCURRENT_STREAMS: gRPC clients queue the rest. */
  readonly maxStreamsPerConnection: number;
  /** Connections open at once per endpoint set, over all its endpoints; one more is closed at once. */
  readonly maxConnectionsPerSet: number;
  /** Time without a call after which a connection gets a GOAWAY (grpc-js's max_connection_idle_ms). */
  readonly idleTimeoutMs: number;
  /**
   * Pings closer together than this are a strike; the third strike in a row ends the connection
   * with GOAWAY ENHANCE_YOUR_CALM "too_many_pings", as grpc-go's server does (its MinTime, with
   * PermitWithoutStream): a response's headers or data wipe the strikes.
   */
  readonly minPingIntervalMs: number;
  /** Time a connection the server is closing (a GOAWAY sent) may stay open. */
  readonly closeGraceMs: number;
}

/**
 * The limits the bin serves with. An endpoint set's flood holds at most 64 connections and 64
 * unfinished requests, each for at most 10 s, whatever other sets do. A client sending 256
 * requests at once on a new connection, before it has read the server's SETTINGS, has the rest
 * refused (REFUSED_STREAM, which clients may retry). A grpc-go client pinging every 10 s (its
 * least) is never struck, where upstream's grpc-go server (MinTime 5 min) ended its connection.
 */
export const defaultWireLimits: WireLimits = {
  handshakeTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  requestGraceMs: 1_000,
  maxHeldRequestsPerSet: 64,
  maxStreamsPerConnection: 256,
  maxConnectionsPerSet: 64,
  idleTimeoutMs: 5 * 60_000,
  minPingIntervalMs: 5_000,
  closeGraceMs: 5_000,
};

/** Options of every endpoint's grpc-js `Server`. */
export function grpcServerOptions(limits: WireLimits): GrpcServerOptions {
  return {
    "grpc.max_receive_message_length": maxRequestBytes,
    "grpc.max_concurrent_streams": limits.maxStreamsPerConnection,
    "grpc.max_connection_idle_ms": limits.idleTimeoutMs,
  };
}

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
