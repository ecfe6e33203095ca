import { describe, expect, it } from "vitest";
import { dependentsDeepestFirst } from "../src/dependents.js";
import type { HostDependentEdge } from "../src/host.js";

const running = 4;
const stopped = 1;

function edge(parent: string, name: string, status = running): HostDependentEdge {
  return { parent, name, status };
}

function order(edges: HostDependentEdge[], root = "A"): string[] {
  return dependentsDeepestFirst({ name: root, status: running, dependents: edges });
}

/** Every service comes before each service it depends on (its ancestors in the walk). */
function respectsDependencies(result: string[], edges: HostDependentEdge[]): boolean {
  const at = (name: string) => result.findIndex((n) => n.toLowerCase() === name.toLowerCase());
  return edges.every((e) => at(e.parent) === -1 || at(e.name) === -1 || at(e.name) < at(e.parent));
}

describe("dependentsDeepestFirst", () => {
  it("lists a chain leaf first (upstream's unit test: A → B → C gives C, B)", () => {
    expect(order([edge("A", "B"), edge("B", "C")])).toEqual(["C", "B"]);
  });

  it("lists nothing for a service without dependents", () => {
    expect(order([])).toEqual([]);
  });

  it("puts a shared dependent before both of the services it depends on", () => {
    const edges = [edge("A", "B"), edge("A", "C"), edge("B", "D"), edge("C", "D")];
    const result = order(edges);
    expect(result).toEqual(["D", "B", "C"]);
    expect(respectsDependencies(result, edges)).toBe(true);
  });

  it("handles a dependent listed both directly and through another (EnumDependentServices is transitive)", () => {
    const edges = [edge("A", "C"), edge("A", "B"), edge("B", "C")];
    const result = order(edges);
    expect(result).toEqual(["C", "B"]);
    expect(respectsDependencies(result, edges)).toBe(true);
  });

  it("leaves out stopped dependents but still stops what runs beneath them", () => {
    expect(order([edge("A", "B", stopped), edge("B", "C")])).toEqual(["C"]);
  });

  it("matches names case-insensitively, as Windows does", () => {
    expect(order([edge("a", "B"), edge("b", "c"), edge("C", "d")], "A")).toEqual(["d", "c", "B"]);
  });

  it("never lists the service itself, even if a cycle leads back to it", () => {
    expect(order([edge("A", "B"), edge("B", "A")])).toEqual(["B"]);
  });

  it("keeps every dependency in a wide, deep graph", () => {
    const edges = [
      edge("A", "B"),
      edge("A", "C"),
      edge("A", "E"),
      edge("B", "D"),
      edge("C", "D"),
      edge("D", "F"),
      edge("E", "F"),
      edge("C", "G"),
    ];
    const result = order(edges);
    expect([...result].sort()).toEqual(["B", "C", "D", "E", "F", "G"]);
    expect(respectsDependencies(result, edges)).toBe(true);
  });
});
