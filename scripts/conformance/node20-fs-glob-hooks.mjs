// The resolve hook registered by node20-fs-glob.mjs (runs on the loader thread): `fs` / `node:fs` imported from
// inside the conformance package resolves to node20-fs-shim.mjs. On Node >= 22 it changes nothing.
const CONFORMANCE_DIRS = ["/node_modules/conformance-v2/", "/node_modules/conformance-v1/", "/node_modules/@modelcontextprotocol/conformance/"];
const SHIM = new URL("./node20-fs-shim.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  const parent = context.parentURL ?? "";
  if ((specifier === "fs" || specifier === "node:fs") && parent !== SHIM && CONFORMANCE_DIRS.some((dir) => parent.includes(dir))) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
