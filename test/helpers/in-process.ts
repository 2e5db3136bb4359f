/**
 * The tests connect to builds in-process the way an extension author's test does: with mcp-host's own
 * `connectInProcess` (src/host/in-process.ts).
 */
export { connectInProcess } from "../../src/host/in-process.js";
export type { InProcessConnection } from "../../src/host/in-process.js";
