// Node 20 support for @modelcontextprotocol/conformance >= 0.1.14 (here 0.2.0-alpha.12, installed as the alias
// `conformance-v2`). Its bundle does `import { globSync } from "fs"`, which exists only from Node 22, so the
// import fails before any command runs. `node --import ./node20-fs-glob.mjs …` registers a resolve hook that
// redirects the conformance package's own `fs` import to a shim: node:fs plus a minimal globSync.
import { register } from "node:module";

register(new URL("./node20-fs-glob-hooks.mjs", import.meta.url));
