/**
 * mcp-host as a peer of scenarios 1–3, as users run it: the built CLI's `serve` (lib/cli-host.ts) on
 * bench/fixtures/bench-project, whose one extension serves the bench tools, with a config file the suite writes in
 * a temp folder. `mcp-host` keeps serve's default logging (a JSON access line per HTTP request and an audit line per
 * tool call, on stderr, which the suite drains and counts); `mcp-host-silent` is the same with
 * `logging: { access: false, audit: false }` — the silent figure. Every CLI peer is started with the probe preloaded
 * (bench/servers/cli-probe.mjs: heap after a full GC over IPC, and no orphan if the suite dies).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliPeerId, PeerConfig } from "../servers/peer.js";
import { CliHost } from "./cli-host.js";
import type { Memory, StartOptions } from "./peer-process.js";
import { defined } from "../../src/defined.js";

/** The project `serve` runs in (`--cwd`). */
export const BENCH_PROJECT = fileURLToPath(new URL("../fixtures/bench-project", import.meta.url));
/** The tool every CLI host lists beside its extensions' (the host's own catalog tool; a deployment gets it too). */
export const HOST_OWN_TOOLS = ["list_server_toolsets"];

/**
 * The config file's content for a peer config (every key is a documented one, docs/config.md).
 * @example
 * cliConfig({ peer: "mcp-host-silent", extraTools: 1000 })
 * // { extensions: { options: { bench: { extraTools: 1000 } } }, logging: { access: false, audit: false } }
 */
export function cliConfig(config: PeerConfig & { peer: CliPeerId }): Record<string, unknown> {
  const http = {
    ...defined({ sessionIdleTtlMs: config.sessionIdleTtlMs, maxSessionsPerCaller: config.maxSessionsPerCaller }),
    ...(config.peer === "mcp-host-entry" ? { fastPath: false } : {}),
  };
  return {
    extensions: { options: { bench: { extraTools: config.extraTools } } },
    ...(Object.keys(http).length ? { http } : {}),
    ...(config.peer === "mcp-host-silent" ? { logging: { access: false, audit: false } } : {}),
  };
}

/** The environment variable naming the checkout whose built CLI `mcp-host-before` runs. */
export const BEFORE_ENV = "MCP_HOST_BENCH_BEFORE";

/** Whether this run measures a before build (the scenarios add the `mcp-host-before` peer only then). */
export function measuresBefore(): boolean {
  return Boolean(process.env[BEFORE_ENV]);
}

/** `<checkout>/dist/cli/main.js` of the before build; a clear error when it is not set or not built. */
function beforeCli(): string {
  const checkout = process.env[BEFORE_ENV];
  if (!checkout) throw new Error(`the mcp-host-before peer needs ${BEFORE_ENV}=<a checkout of mcp-host, built>`);
  const cli = join(checkout, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error(`${BEFORE_ENV}=${checkout} has no dist/cli/main.js: run \`npm ci && npm run build\` there first`);
  return cli;
}

/**
 * @example
 * const host = await CliPeer.start({ peer: "mcp-host", extraTools: 0 });
 * … host.logLines() … await host.close();
 */
export class CliPeer {
  private constructor(
    readonly config: PeerConfig,
    private readonly host: CliHost,
    private readonly dir: string,
  ) {}

  static async start(config: PeerConfig & { peer: CliPeerId }, options: StartOptions = {}): Promise<CliPeer> {
    const dir = mkdtempSync(join(tmpdir(), `mcp-host-bench-${config.peer}-`));
    try {
      const file = join(dir, "mcp-host.config.json");
      writeFileSync(file, `${JSON.stringify(cliConfig(config), null, 2)}\n`);
      const host = await CliHost.start({
        cwd: BENCH_PROJECT,
        config: file,
        probe: true,
        ...(options.cpuProfDir ? { cpuProfDir: options.cpuProfDir } : {}),
        ...(config.peer === "mcp-host-before" ? { cli: beforeCli() } : {}),
      });
      return new CliPeer(config, host, dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  get pid(): number {
    return this.host.pid;
  }

  get url(): URL {
    return this.host.url;
  }

  cpuMicros(): number {
    return this.host.cpuMicros();
  }

  rssBytes(): number {
    return this.host.rssBytes();
  }

  logLines(): number {
    return this.host.logLines();
  }

  /** Resolves once the host has written at least `count` lines on stderr. */
  waitForLogLines(count: number): Promise<void> {
    return this.host.waitForLogLines(count);
  }

  /** The temp folder holding its config file (removed on close). */
  get folder(): string {
    return this.dir;
  }

  /** How many times the host said it dropped log lines (the suite did not drain its stderr fast enough). */
  get dropWarnings(): number {
    return this.host.dropWarnings;
  }

  memory(): Promise<Memory> {
    return this.host.memory();
  }

  stderr(): string {
    return this.host.stderr();
  }

  async close(): Promise<void> {
    try {
      await this.host.close();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
