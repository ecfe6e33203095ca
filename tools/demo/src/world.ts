import { demoNodeWorld, scenarios, type ScenarioSpec } from "@csi-proxy/winsim";

/** The storage array, file server and credentials of the demo's simulated data center. */
export const world = demoNodeWorld;

/** The demo host: @csi-proxy/winsim's `scenarios.demoNode()` (the demo's node, now published). */
export function demoScenario(): ScenarioSpec {
  return scenarios.demoNode();
}
