// node:fs plus `globSync` for Node 20. Conformance uses globSync only in `tier-check` (pattern `**/<file name>`),
// which never runs here; this minimal version supports exactly that pattern and otherwise defers to Node's own.
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default fs;

export function globSync(pattern, options = {}) {
  if (typeof fs.globSync === "function") return fs.globSync(pattern, options);
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  if (!patterns.every((p) => /^\*\*\/[^*?[\]{}/]+$/.test(p))) {
    throw new Error(`globSync shim (Node 20) supports only "**/<file name>", not ${JSON.stringify(pattern)}`);
  }
  const names = new Set(patterns.map((p) => p.slice(3)));
  const cwd = String(options.cwd ?? process.cwd());
  const found = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(cwd, rel), { withFileTypes: true })) {
      const child = rel ? path.join(rel, entry.name) : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== ".git") walk(child);
      } else if (names.has(entry.name)) found.push(child);
    }
  };
  walk("");
  return found.sort();
}
