// examples/gateway/: the committed config mounts server-everything and server-filesystem (read-only tools only,
// through `include`) beside the first-party plugins. Loaded here with loadConfig, its `servers:` given to
// createGateway as they are, served over HTTP and called through the host — so the example stays true.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/index.js";
import { buildHost } from "../../src/host/build-host.js";
import { loadExtensions } from "../../src/host/loading/load-extensions.js";
import { listenHost } from "../../src/http/listen.js";
import { silentLogger } from "../../src/logger.js";
import { createGateway } from "../../src/upstream/index.js";
import { Cleanup, connectV1, connectV2 } from "../helpers/http-host.js";
import { assertNoUpstreamLeft, EVERYTHING_TOOLS, textOf, toolNames } from "./gateway-kit.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples", "gateway");
const READ_ONLY = [
  "directory_tree",
  "get_file_info",
  "list_allowed_directories",
  "list_directory",
  "list_directory_with_sizes",
  "read_media_file",
  "read_multiple_files",
  "read_text_file",
  "search_files",
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("examples/gateway", { timeout: 60_000 }, () => {
  it("serves server-everything and the read-only tools of server-filesystem beside the first-party plugins", async () => {
    const { config, source } = await loadConfig({ cwd: EXAMPLE, file: "mcp-host.config.yaml", env: {} });
    assert.equal(source, join(EXAMPLE, "mcp-host.config.yaml"));
    const gateway = createGateway({
      servers: config.servers,
      startupTimeoutMs: config.startupTimeoutMs,
      remoteServers: config.remoteServers,
      logger: silentLogger,
    });
    const plugins = await loadExtensions({ cwd: ROOT, names: config.extensions.include, logger: silentLogger });
    const host = buildHost([gateway.extension, ...plugins.extensions], { name: config.name ?? "gateway-example", logger: silentLogger });
    await host.start();
    const served = await listenHost(host, { port: 0 });
    cleanup.add(async () => {
      await served.close();
      assertNoUpstreamLeft();
    });
    assert.deepEqual(gateway.problems(), []);
    assert.deepEqual(
      host.extensionStatuses().map((e) => [e.name, e.status]),
      [
        ["gateway", "ready"],
        ["text", "ready"],
        ["time", "ready"],
        ["units", "dormant"],
      ],
    );
    const at = (query: string) => new URL(`${served.url.href}?${query}`);

    const files = (await connectV2(cleanup, at("only=files"), "modern")).client;
    assert.deepEqual(await toolNames(files), [...READ_ONLY, "list_server_toolsets"].sort(), "no tool that writes is offered");
    const readme = await files.callTool({ name: "read_text_file", arguments: { path: join(EXAMPLE, "README.md") } });
    assert.equal(textOf(readme), readFileSync(join(EXAMPLE, "README.md"), "utf8"));
    await assert.rejects(files.callTool({ name: "write_file", arguments: { path: join(EXAMPLE, "x"), content: "no" } }), /Unknown tool "write_file"/);

    const everything = (await connectV1(cleanup, at("only=everything"))).client;
    const tools = (await everything.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(tools, [...EVERYTHING_TOOLS.filter((t) => t !== "get-env"), "list_server_toolsets"].sort());
    assert.equal(textOf(await everything.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })), "The sum of 2 and 3 is 5.");

    const all = (await connectV2(cleanup, at(""), "legacy")).client;
    const offered = await toolNames(all);
    for (const name of ["read_text_file", "get-sum", "convert_time"]) assert.ok(offered.includes(name), `${name} is in the default selection`);
  });
});
