// The manual clock lives in src/ (mcp-host/testing exports it for extension authors); tests import it from here.
export { ManualClock, createManualClock } from "../../src/manual-clock.js";
