import { withCallContext, type CallOptions } from "@csi-proxy/exec";
import type { NodeGroups } from "../handlers/context.js";
import type { Grants } from "./grants.js";
import {
  byIdentity,
  identityGranted,
  sessionGranted,
  type Dated,
  type IdentityFact,
  type SessionFact,
} from "./ownership-facts.js";
import { SharedListing } from "./shared-listing.js";

/** How old a fact may be for a "yes" without reading the host again (docs/ownership.md). */
export const defaultMaxFactAgeMs = 2_000;

// A listing serves many callers, none of whose deadlines is its own.
const listingTimeoutMs = 60_000;
// Facts learned from answers, per kind; the oldest go first (they are past use anyway).
const maxLearned = 4_096;

/** Settings of an {@link OwnershipIndex}. */
export interface OwnershipSettings {
  readonly maxFactAgeMs?: number;
  /** The clock (`performance.now()`); tests move it. */
  readonly now?: () => number;
}

/**
 * What the node is, as far as whose disks and volumes are whose: which session (target, portals)
 * each disk number is on, each disk's page 83 id and serial, each volume's disks. Shared by every
 * caller; grants are applied to it in memory. Facts come from the server's own allowed answers
 * (learned at no host cost) and from three listings (every session's disks, every disk's ids,
 * every volume's disks), each shared by all decisions of one caller's pool lane waiting for it
 * and run in that lane (what one lane reads, every caller's decisions use). A "yes" rests only on
 * facts read after the last change the server made that can move a disk number, and at most
 * `maxFactAgeMs` before the decision began; a "no" is read again before it denies. The reasoning
 * is in docs/ownership.md.
 */
export class OwnershipIndex {
  readonly #now: () => number;
  readonly #maxAgeMs: number;
  readonly #sessions: SharedListing<ReadonlyMap<number, readonly SessionFact[]>>;
  readonly #identities: SharedListing<ReadonlyMap<number, IdentityFact>>;
  readonly #volumes: SharedListing<ReadonlyMap<string, readonly number[]>>;
  // From GetTargetDisks, ListVolumesOnDisk and GetDiskNumberFromVolumeID answers.
  readonly #targetDisks = new Map<number, Dated<SessionFact[]>>();
  readonly #volumeDisks = new Map<string, Dated<number[]>>();
  #changesInFlight = 0;
  #lastChangeEnd = Number.NEGATIVE_INFINITY;

  constructor(groups: NodeGroups, settings: OwnershipSettings = {}) {
    this.#now = settings.now ?? (() => performance.now());
    this.#maxAgeMs = settings.maxFactAgeMs ?? defaultMaxFactAgeMs;
    // A listing takes the turn of the caller that needs it, so one set's refusals wait for its
    // own processes and never hold the one another set is left.
    const options = (lane: string | undefined) => ({
      timeoutMs: listingTimeoutMs,
      ...(lane === undefined ? {} : { fairnessKey: lane }),
    });
    this.#sessions = new SharedListing(async (lane) => {
      const { sessions } = await groups.iscsi.listSessionDisks({}, options(lane));
      const byDisk = new Map<number, SessionFact[]>();
      for (const session of sessions) {
        const portals = session.targetPortals.map((p) => ({
          address: p.targetAddress.toLowerCase(),
          port: p.targetPort,
        }));
        for (const { diskId } of session.disks) {
          byDisk.set(diskId, [...(byDisk.get(diskId) ?? []), { iqn: session.iqn, portals }]);
        }
      }
      return byDisk;
    }, this.#now);
    this.#identities = new SharedListing(async (lane) => {
      const { diskIds } = await groups.disk.listDiskIds({}, options(lane));
      return new Map([...diskIds].map(([n, ids]) => [n, ids]));
    }, this.#now);
    this.#volumes = new SharedListing(async (lane) => {
      const { volumes } = await groups.volume.listVolumeDisks({}, options(lane));
      return new Map(volumes.map((v) => [v.volumeId.toLowerCase(), v.diskNumbers]));
    }, this.#now);
  }

  /** The index's clock: when a call that teaches it started. */
  now(): number {
    return this.#now();
  }

  /** Whether the disk is the caller's (see the class for when the host is read). */
  async diskOwned(grants: Grants, diskNumber: number, options: CallOptions): Promise<boolean> {
    if (grants.disksAny) return true;
    const start = this.#now();
    const known = () => this.#diskKnown(grants, diskNumber, start);
    if (known()) return true;
    if ((await this.#joinRunning(grants, start, false, options)) && known()) return true;
    await this.#readFresh(grants, start, false, options);
    return known();
  }

  /**
   * Whether the volume is the caller's: granted by id, or on a disk of the caller's. A volume not
   * shown to be so is looked up in a listing of every volume: the host is asked the same whether
   * it is another caller's or not there at all.
   */
  async volumeOwned(grants: Grants, volumeId: string, options: CallOptions): Promise<boolean> {
    const key = volumeId.toLowerCase();
    if (grants.volumes === "any" || grants.volumes.includes(key)) return true;
    if (grants.disksAny) return true;
    if (!grants.disksOfIscsiTargets && !byIdentity(grants)) return false;
    const start = this.#now();
    const known = () => this.#volumeKnown(grants, key, start);
    if (known()) return true;
    if ((await this.#joinRunning(grants, start, true, options)) && known()) return true;
    await this.#readFresh(grants, start, true, options);
    return known();
  }

  /** Of `diskNumbers`, those that are the caller's (one read for all, when one is needed). */
  async disksOwned(
    grants: Grants,
    diskNumbers: readonly number[],
    options: CallOptions,
  ): Promise<Set<number>> {
    if (grants.disksAny) return new Set(diskNumbers);
    const start = this.#now();
    const known = () => new Set(diskNumbers.filter((n) => this.#diskKnown(grants, n, start)));
    const first = known();
    if (first.size === diskNumbers.length) return first;
    if (await this.#joinRunning(grants, start, false, options)) {
      const joined = known();
      if (joined.size === diskNumbers.length) return joined;
    }
    await this.#readFresh(grants, start, false, options);
    return known();
  }

  /** GetTargetDisks' answer: these disks are on sessions of `iqn` (through portals it does not say). */
  learnTargetDisks(iqn: string, diskNumbers: readonly number[], at: number): void {
    for (const n of diskNumbers) {
      const earlier = this.#targetDisks.get(n);
      const others = earlier?.at === at ? earlier.fact : [];
      remember(this.#targetDisks, n, { fact: [...others, { iqn, portals: undefined }], at });
    }
  }

  /** ListVolumesOnDisk's or GetDiskNumberFromVolumeID's answer: the volume lies on the disk. */
  learnVolumeDisk(volumeId: string, diskNumber: number, at: number): void {
    remember(this.#volumeDisks, volumeId.toLowerCase(), { fact: [diskNumber], at });
  }

  /**
   * The server is about to make a change that can take a disk away and so free its number for
   * another (a logout, a portal removed): until the returned function is called, no decision
   * rests on what was read before, and afterwards only on what was read after it.
   */
  beginChange(): () => void {
    this.#changesInFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#changesInFlight -= 1;
      this.#lastChangeEnd = Math.max(this.#lastChangeEnd, this.#now());
    };
  }

  /** The node changed under the server (a disk or volume it had reason to expect was not found). */
  noteChange(): void {
    this.#lastChangeEnd = Math.max(this.#lastChangeEnd, this.#now());
  }

  // A fact may carry a "yes" for a decision that began at `start`: read since it began, or read
  // since the last change, none in flight, and at most maxAgeMs before it began.
  #current(at: number, start: number): boolean {
    if (at >= start) return true;
    return this.#changesInFlight === 0 && at > this.#lastChangeEnd && at >= start - this.#maxAgeMs;
  }

  #diskKnown(grants: Grants, diskNumber: number, start: number): boolean {
    if (byIdentity(grants)) {
      const listed = this.#identities.last;
      const identity = listed?.value.get(diskNumber);
      if (listed !== undefined && identity !== undefined && this.#current(listed.at, start)) {
        if (identityGranted(grants, identity)) return true;
      }
    }
    if (!grants.disksOfIscsiTargets) return false;
    // The newer of the session listing and an answer naming the disk's target says where it is.
    const listed = this.#sessions.last;
    const answered = this.#targetDisks.get(diskNumber);
    const newest =
      answered !== undefined && (listed === undefined || answered.at > listed.at)
        ? answered
        : listed === undefined
          ? undefined
          : { fact: listed.value.get(diskNumber) ?? [], at: listed.at };
    if (newest === undefined || !this.#current(newest.at, start)) return false;
    return newest.fact.some((session) => sessionGranted(grants, session));
  }

  #volumeKnown(grants: Grants, key: string, start: number): boolean {
    const listed = this.#volumes.last;
    const answered = this.#volumeDisks.get(key);
    const newest =
      answered !== undefined && (listed === undefined || answered.at > listed.at)
        ? answered
        : listed === undefined
          ? undefined
          : { fact: listed.value.get(key) ?? [], at: listed.at };
    if (newest === undefined || !this.#current(newest.at, start)) return false;
    return newest.fact.some((n) => this.#diskKnown(grants, n, start));
  }

  /**
   * Waits for the listings under way that a "yes" may rest on (begun after the last change, at
   * most the bound before `start`), starting none: a decision that finds the host being read
   * takes that answer rather than a later one. False when none is under way.
   */
  async #joinRunning(
    grants: Grants,
    start: number,
    volumes: boolean,
    options: CallOptions,
  ): Promise<boolean> {
    if (this.#changesInFlight > 0) return false;
    const floor = Math.max(start - this.#maxAgeMs, this.#lastChangeEnd + Number.EPSILON);
    // Only the caller's own lane's: another's may still be waiting behind that caller's calls.
    const lane = options.fairnessKey;
    const running = [
      grants.disksOfIscsiTargets ? this.#sessions.running(floor, lane) : undefined,
      byIdentity(grants) ? this.#identities.running(floor, lane) : undefined,
      volumes ? this.#volumes.running(floor, lane) : undefined,
    ].filter((p) => p !== undefined);
    if (running.length === 0) return false;
    // Set inside the callback: an object, so the check below is not narrowed to its first value.
    const ended = { byCaller: false };
    try {
      await withCallContext("ownership lookup", options, async (context) => {
        try {
          await context.race(Promise.all(running));
        } catch (error) {
          ended.byCaller = context.signal.aborted;
          throw error;
        }
      });
    } catch (error) {
      // A listing that failed shows nothing (a fresh one decides); the caller's own end stands.
      if (ended.byCaller) throw error;
      return false;
    }
    return true;
  }

  // What the grants need, read by host calls that started at or after `start` (shared).
  async #readFresh(
    grants: Grants,
    start: number,
    volumes: boolean,
    options: CallOptions,
  ): Promise<void> {
    // One after another, in one order: a refusal asks the host the same calls in the same order
    // whatever it was asked about, and a caller's listings hold one of its processes at a time.
    const lane = options.fairnessKey;
    const reads = async () => {
      if (grants.disksOfIscsiTargets) await this.#sessions.get(start, lane);
      if (byIdentity(grants)) await this.#identities.get(start, lane);
      if (volumes) await this.#volumes.get(start, lane);
    };
    // The caller stops waiting at its own deadline; the shared listing goes on for the others.
    await withCallContext("ownership lookup", options, (context) => context.race(reads()));
  }
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxLearned) map.delete(map.keys().next().value as K);
}
