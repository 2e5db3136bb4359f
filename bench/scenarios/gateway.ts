/**
 * Scenario 5, `gateway`: a placeholder. Measuring mcp-host as a gateway (upstream servers as toolsets, DESIGN.md
 * §11, §15: one shared connection per upstream, no per-call re-listing) needs the gateway issue to land first;
 * the lead fills this scenario in then. It measures nothing and passes nothing.
 */
import { emptyOutcome, type Scenario } from "./scenario.js";

export const gatewayScenario: Scenario = {
  name: "gateway",
  title: "Scenario 5 — gateway (placeholder)",
  about:
    "Not measured yet: this scenario needs the gateway issue (upstream servers served as toolsets). When it lands it will compare a tools/call through mcp-host to an upstream against the upstream called directly (added latency and CPU per call), with one shared connection per upstream and no per-call re-listing.",
  async run() {
    const outcome = emptyOutcome();
    outcome.notes.push("Placeholder: needs the gateway issue; nothing is measured.");
    outcome.targets.push({
      id: "S5.gateway",
      text: "gateway overhead targets (to be set with the gateway issue)",
      pass: null,
      measured: "not measured: the scenario is a placeholder",
    });
    return outcome;
  },
};
