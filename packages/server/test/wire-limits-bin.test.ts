// One oversized request must be answered at once and must not hold its HTTP/2 connection: upstream's
// Go clients keep one connection per endpoint, so a frozen one would freeze the driver.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, Client, Metadata, type ServiceError } from "@grpc/grpc-js";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { servedApis } from "../src/endpoints.js";
import { serviceDefinition } from "../src/proto.js";
import { maxDetailsLength, maxRequestBytes } from "../src/wire-limits.js";
import { startBin, type RunningBin } from "./harness.js";
import type { Reply } from "./raw-grpc.js";

const OK = 0;
const INVALID_ARGUMENT = 3;
const RESOURCE_EXHAUSTED = 8;
const generousMs = 10_000;
const mine = "C:\\var\\lib\\kubelet\\plugins\\org.example.wire";
// Over the limit; and under it, a path whose echo in the details would not fit in the trailers.
const overLimit = `${mine}\\${"a".repeat(3_000_000)}`;
const echoedTooLong = `${mine}\\${"a".repeat(200_000)}`;
const small = (i: number) => ({ path: `${mine}\\small-${i}` });

interface Answer {
  readonly code: number;
  readonly details: string;
}

describeWithPwsh("requests over the size limit", (pwsh) => {
  let bin: RunningBin;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-wire-"));
    const rule = {
      name: "wire",
      callers: [{ local: true }],
      methods: ["filesystem.*"],
      driver: "org.example.wire",
    };
    writeFileSync(join(dir, "policy.json"), JSON.stringify({ version: 1, rules: [rule] }));
    bin = await startBin(pwsh, ["--simulate", "--policy", join(dir, "policy.json")]);
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  // A frozen connection neither answers nor closes its streams: give up waiting, never hang.
  function answered(answer: Promise<Answer>): Promise<Answer> {
    let timer: NodeJS.Timeout | undefined;
    const none = new Promise<Answer>((resolve) => {
      timer = setTimeout(() => resolve({ code: -1, details: "no answer" }), generousMs * 2);
    });
    return Promise.race([answer, none]).finally(() => clearTimeout(timer));
  }

  // Started together, so the small calls queue behind the large one on the same connection.
  async function behindOne(
    call: (request: Record<string, unknown>) => Promise<Answer>,
    large: string,
  ): Promise<{ first: Answer; codes: number[] }> {
    const first = answered(call({ path: large }));
    const rest = Array.from({ length: 150 }, (_, i) => answered(call(small(i))));
    return { first: await first, codes: (await Promise.all(rest)).map((answer) => answer.code) };
  }

  const raw = () => {
    const client = bin.client("filesystem-v1");
    return (request: Record<string, unknown>): Promise<Reply> =>
      client.call("PathExists", request, { timeoutMs: generousMs });
  };

  it("a raw HTTP/2 client: over the limit is RESOURCE_EXHAUSTED and 150 calls behind it answer", async () => {
    const { first, codes } = await behindOne(raw(), overLimit);
    expect(first.code).toBe(RESOURCE_EXHAUSTED);
    expect(first.details).toContain(String(maxRequestBytes));
    expect(codes).toEqual(Array.from({ length: 150 }, () => OK));
  });

  it("a raw HTTP/2 client: a path too long to echo is INVALID_ARGUMENT, its details cut", async () => {
    const { first, codes } = await behindOne(raw(), echoedTooLong);
    expect(first.code).toBe(INVALID_ARGUMENT);
    expect(first.details).toMatch(/^The path is longer than 260 characters: C:\\var/);
    expect(first.details.length).toBeLessThan(maxDetailsLength + 100);
    expect(codes).toEqual(Array.from({ length: 150 }, () => OK));
  });

  it("a grpc-js client on one channel: the same for both", async () => {
    const api = servedApis.find((a) => a.group === "filesystem" && a.version === "v1");
    if (api === undefined) throw new Error("no filesystem v1");
    const method = serviceDefinition(api)["PathExists"];
    if (method === undefined) throw new Error("no PathExists");
    const client = new Client(
      `unix:${bin.ready.endpoints["filesystem-v1"] ?? ""}`,
      credentials.createInsecure(),
    );
    const call = (request: Record<string, unknown>) =>
      new Promise<Answer>((resolve) => {
        const deadline = Date.now() + generousMs;
        client.makeUnaryRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          request,
          new Metadata(),
          { deadline },
          (error: ServiceError | null) =>
            resolve({ code: error?.code ?? OK, details: error?.details ?? "" }),
        );
      });
    try {
      for (const large of [overLimit, echoedTooLong]) {
        const { first, codes } = await behindOne(call, large);
        expect(first.code).toBe(large === overLimit ? RESOURCE_EXHAUSTED : INVALID_ARGUMENT);
        expect(codes).toEqual(Array.from({ length: 150 }, () => OK));
      }
    } finally {
      client.close();
    }
  });
});
