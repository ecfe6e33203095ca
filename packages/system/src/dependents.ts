import { ServiceStatus } from "./enums.js";
import type { HostDependencies } from "./host.js";

/**
 * The dependents of a service that are not stopped, in an order that stops every service before
 * any service it depends on (deepest first): a depth-first walk that lists a service after all
 * of its own dependents. Names are compared case-insensitively, as Windows does.
 */
export function dependentsDeepestFirst(graph: HostDependencies): string[] {
  const children = new Map<string, string[]>();
  const names = new Map<string, string>();
  const running = new Set<string>();
  for (const edge of graph.dependents) {
    const parent = edge.parent.toLowerCase();
    const child = edge.name.toLowerCase();
    children.set(parent, [...(children.get(parent) ?? []), child]);
    names.set(child, edge.name);
    // Snapshots may disagree; anything not seen as stopped is stopped (a no-op if it already is).
    if (edge.status !== ServiceStatus.STOPPED) running.add(child);
  }
  const root = graph.name.toLowerCase();
  const order: string[] = [];
  const visited = new Set<string>([root]);
  const visit = (key: string): void => {
    for (const child of children.get(key) ?? []) {
      if (visited.has(child)) continue;
      visited.add(child);
      visit(child);
      if (running.has(child)) order.push(names.get(child) ?? child);
    }
  };
  visit(root);
  return order;
}
