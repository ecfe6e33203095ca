import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject } from "ajv";
import { parse as parseYaml } from "yaml";
import { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
import { compileGrants, type Grants } from "./grants.js";
import { defaultEndpointSet } from "../endpoints.js";
import type { Caller } from "../identity.js";
import type { CallerSpec, PolicySpec, RuleSpec } from "./spec.js";

/** The published JSON Schema of policy files (also exported as `@csi-proxy/server/policy.schema.json`). */
export const policySchemaPath = fileURLToPath(
  new URL("../../schema/policy.schema.json", import.meta.url),
);

/** A loaded policy: the grants of each caller. */
export interface Policy {
  /** The file it came from, or `v1-compatible`. */
  readonly source: string;
  /** Said once at start, when the policy is wider than it should be. */
  readonly warning?: string | undefined;
  /** Whether a rule is for service accounts (which needs a way to verify their tokens). */
  readonly namesServiceAccounts: boolean;
  /**
   * The endpoint sets served, as the policy was checked against them: with more than one, each
   * set's calls take their own turn in the PowerShell pool.
   */
  readonly endpointSets?: readonly string[];
  /**
   * The merged grants of the rules that match the caller on endpoint set `endpointSet` (the
   * default set when absent); undefined when none does.
   */
  grantsFor(caller: Caller, endpointSet?: string): Grants | undefined;
  /**
   * The grants of the token-less callers of `endpointSet` (rules with `{ "endpointSet" }`
   * callers): a call with a token on that set must be allowed by these too, so a token never
   * reaches past the set it came in on. Undefined when no such rule names the set.
   */
  endpointSetGrants(endpointSet: string): Grants | undefined;
}

/** The name of the built-in policy that reproduces upstream v1's rules. */
export const v1CompatiblePolicy = "v1-compatible";

function policyError(source: string, message: string): CsiProxyError {
  return new CsiProxyError(`Policy ${source}: ${message}`, { code: "INVALID_ARGUMENT" });
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === "" ? "(top level)" : error.instancePath;
  const extra =
    error.keyword === "additionalProperties"
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : "";
  return `${at} ${error.message ?? "is invalid"}${extra}`;
}

let validator: ReturnType<Ajv["compile"]> | undefined;

function validate(source: string, value: unknown): PolicySpec {
  validator ??= new Ajv({ allErrors: true }).compile(
    JSON.parse(readFileSync(policySchemaPath, "utf8")) as object,
  );
  if (!validator(value)) {
    // oneOf branches repeat each other; the first few distinct messages say enough.
    const messages = [...new Set((validator.errors ?? []).map(describe))].slice(0, 5);
    throw policyError(source, `does not match the policy schema: ${messages.join("; ")}`);
  }
  return value as PolicySpec;
}

function checkMethods(source: string, rule: RuleSpec, known: ReadonlySet<string>): void {
  for (const method of rule.methods) {
    if (method.endsWith("*")) continue;
    if (!known.has(method)) {
      throw policyError(source, `rule "${rule.name}" grants ${method}, which no served API has.`);
    }
  }
}

function callerMatches(spec: CallerSpec, caller: Caller, endpointSet: string): boolean {
  if ("local" in spec) return caller.kind === "local";
  if (!("serviceAccount" in spec))
    return caller.kind === "local" && spec.endpointSet === endpointSet;
  return (
    caller.kind === "serviceAccount" &&
    spec.serviceAccount.namespace === caller.namespace &&
    (spec.serviceAccount.name === "*" || spec.serviceAccount.name === caller.serviceAccount) &&
    (spec.endpointSet === undefined || spec.endpointSet === endpointSet)
  );
}

const setOf = (spec: CallerSpec) => ("endpointSet" in spec ? spec.endpointSet : undefined);

function checkEndpointSets(source: string, rule: RuleSpec, served: ReadonlySet<string>): void {
  for (const set of rule.callers.map(setOf)) {
    if (set !== undefined && !served.has(set)) {
      throw policyError(
        source,
        `rule "${rule.name}" names endpoint set "${set}", which is not served (--endpoint-set ${[...served].join(", ")}).`,
      );
    }
  }
}

// With more than one set, a rule for every token-less caller undoes what the sets keep apart.
function unionWarning(spec: PolicySpec, served: ReadonlySet<string>): string | undefined {
  if (served.size < 2) return undefined;
  const wide = spec.rules.filter((rule) => rule.callers.some((c) => "local" in c));
  if (wide.length === 0) return undefined;
  return `rules ${wide.map((r) => `"${r.name}"`).join(", ")} grant token-less callers on every endpoint set ({ "local": true }), so those grants are not kept apart by the sets; use { "endpointSet": ... } callers instead.`;
}

interface CompileSettings {
  readonly kubeletPath: string;
  readonly methods: ReadonlySet<string>;
  readonly endpointSets: ReadonlySet<string>;
}

function compile(
  source: string,
  spec: PolicySpec,
  settings: CompileSettings,
  warning?: string,
): Policy {
  const { kubeletPath } = settings;
  const names = new Set<string>();
  for (const rule of spec.rules) {
    if (names.has(rule.name)) throw policyError(source, `two rules are named "${rule.name}".`);
    names.add(rule.name);
    checkMethods(source, rule, settings.methods);
    checkEndpointSets(source, rule, settings.endpointSets);
    try {
      compileGrants([rule], kubeletPath);
    } catch (error) {
      if (!isCsiProxyError(error)) throw error;
      throw policyError(source, `rule "${rule.name}": ${error.message}`);
    }
  }
  const cache = new Map<string, Grants | undefined>();
  const cached = (key: string, matches: (c: CallerSpec) => boolean): Grants | undefined => {
    if (!cache.has(key)) {
      const rules = spec.rules.filter((rule) => rule.callers.some(matches));
      const others = spec.rules.filter((rule) => !rules.includes(rule));
      cache.set(key, rules.length === 0 ? undefined : compileGrants(rules, kubeletPath, others));
    }
    return cache.get(key);
  };
  const namesAccounts = spec.rules.some((rule) => rule.callers.some((c) => "serviceAccount" in c));
  return {
    source,
    warning: warning ?? unionWarning(spec, settings.endpointSets),
    endpointSets: [...settings.endpointSets],
    namesServiceAccounts: namesAccounts,
    // Caller names cannot hold a NUL, so the key is never ambiguous.
    grantsFor: (caller, endpointSet = defaultEndpointSet) =>
      cached(`${caller.name}\0${endpointSet}`, (c) => callerMatches(c, caller, endpointSet)),
    endpointSetGrants: (endpointSet) =>
      cached(
        `\0set\0${endpointSet}`,
        (c) => !("local" in c) && !("serviceAccount" in c) && c.endpointSet === endpointSet,
      ),
  };
}

/** Reads and checks a policy file (JSON, or YAML when it ends in `.yaml`/`.yml`), or builds the built-in `v1-compatible` one. */
export function loadPolicy(
  source: string,
  settings: {
    readonly kubeletPath: string;
    readonly workingDirs: readonly string[];
    readonly methods: ReadonlySet<string>;
    /** The endpoint sets served (`--endpoint-set`); only the default set when absent. */
    readonly endpointSets?: readonly string[];
  },
): Policy {
  const compileSettings: CompileSettings = {
    kubeletPath: settings.kubeletPath,
    methods: settings.methods,
    endpointSets: new Set(settings.endpointSets ?? [defaultEndpointSet]),
  };
  if (source === v1CompatiblePolicy) {
    const spec: PolicySpec = {
      version: 1,
      rules: [
        {
          name: v1CompatiblePolicy,
          callers: [{ local: true }],
          // Node-wide methods are never implied by `*`; upstream allowed this one to every caller.
          methods: ["*", "iscsi.SetMutualChapSecret"],
          paths: settings.workingDirs,
          smbRemotePaths: ["*"],
          iscsiPortals: ["*"],
          iscsiTargets: ["*"],
          disks: "*",
          volumes: ["*"],
          services: ["*"],
        },
      ],
    };
    const warning =
      "--policy v1-compatible: every local caller may call every RPC on any disk, volume, share, portal, target and service, as upstream v1 allows; only path fields are limited, to the working dirs. Write a policy for your driver instead.";
    return compile(source, spec, compileSettings, warning);
  }
  let text: string;
  try {
    text = readFileSync(source, "utf8");
  } catch (error) {
    throw policyError(
      source,
      `cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // YAML is a superset of JSON, so one parser reads both; it keeps duplicate keys an error.
  const yaml = /\.ya?ml$/i.test(source);
  let value: unknown;
  try {
    value = yaml ? parseYaml(text, { uniqueKeys: true, maxAliasCount: 0 }) : JSON.parse(text);
  } catch (error) {
    throw policyError(
      source,
      `is not ${yaml ? "YAML" : "JSON"}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return compile(source, validate(source, value), compileSettings);
}
