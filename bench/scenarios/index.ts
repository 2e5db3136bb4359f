/**
 * Every scenario, by the name `--scenario` takes.
 */
import type { ScenarioName } from "../lib/results.js";
import { echoScenario } from "./echo.js";
import { gatewayScenario } from "./gateway.js";
import { scaleOutScenario } from "./scale-out.js";
import type { Scenario } from "./scenario.js";
import { searchScenario } from "./search.js";
import { sessionsScenario } from "./sessions.js";
import { startupScenario } from "./startup.js";
import { thousandToolsScenario } from "./thousand-tools.js";

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  echo: echoScenario,
  "thousand-tools": thousandToolsScenario,
  sessions: sessionsScenario,
  startup: startupScenario,
  gateway: gatewayScenario,
  search: searchScenario,
  "scale-out": scaleOutScenario,
};
