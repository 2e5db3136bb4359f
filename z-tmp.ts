import { loadConfig } from "./src/config/index.js";
try { const r = await loadConfig({ cwd: "/tmp/cfgtry", env: { T: "tok" }, authKinds: [] }); console.log(JSON.stringify(r, null, 1)); } catch (e) { console.log((e as Error).message); }
try { const r = await loadConfig({ cwd: "/tmp", env: {} }); console.log(JSON.stringify(r)); } catch (e) { console.log((e as Error).message); }
