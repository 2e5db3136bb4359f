// The tool worker's entry when the host runs from its TypeScript source (its own tests, under tsx). Node 20 does
// not carry a loader given with --import into worker threads, so this worker registers tsx itself and then runs
// tool-worker.ts. The built package (dist/) never uses this file: its worker is plain JavaScript.
import { register } from "tsx/esm/api";

register();
const { default: runTask } = await import("./tool-worker.ts");

export default runTask;
