// The raw SDK peers are the yardstick: they must run the very SDK packages mcp-host runs. bench/node_modules holds
// the framework peers and their own dependencies (supergateway pins an older @modelcontextprotocol/node), and a peer
// under bench/servers resolves from there first, so a version drift there would compare mcp-host with another SDK.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PEERS = join(ROOT, "bench", "servers", "peers", "sdk-v2.ts");
const SDK_PACKAGES = ["@modelcontextprotocol/server", "@modelcontextprotocol/node", "@modelcontextprotocol/sdk"];

/** The version of `name` that code in the folder of `from` gets: the first node_modules/<name> up the tree (Node's lookup). */
function versionFrom(from: string, name: string): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    const up = dirname(dir);
    assert.notEqual(up, dir, `${name} is not installed above ${from}`);
    dir = up;
  }
}

it("gives the raw SDK peers the SDK packages mcp-host itself resolves, version for version", () => {
  const host = join(ROOT, "src", "index.ts");
  const seen = SDK_PACKAGES.map((name) => [name, versionFrom(PEERS, name), versionFrom(host, name)]);
  for (const [name, peer, own] of seen) assert.equal(peer, own, `${name}: the bench peer resolves ${peer}, mcp-host ${own}`);
});
