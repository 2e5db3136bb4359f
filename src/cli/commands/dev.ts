/**
 * `mcp-host dev`: serves the extension in the current folder over HTTP, as `serve` does, and keeps it fresh — when
 * a file of the project changes, it runs the package's build script (when there is one), imports the project's own
 * extensions afresh and puts them in place of the old ones; connected clients are told the lists changed. A build
 * or an import that fails is reported and the previous version keeps serving.
 */
import { spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { discoverExtensions } from "../../host/loading/discover.js";
import { loadDiscovered } from "../../host/loading/load.js";
import { createLogger, type Logger } from "../../logger.js";
import type { CliSettings } from "../args.js";
import { loadDeployment } from "../deployment.js";
import { versionProjectImports } from "../dev/fresh-imports.js";
import { watchFolder } from "../dev/watch-folder.js";
import { listenOrStop } from "../listen-failure.js";
import { servingOptionsOf } from "../listen-options.js";
import { onShutdownSignals } from "../signals.js";

type Env = Readonly<Record<string, string | undefined>>;

function hasBuildScript(cwd: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { scripts?: Record<string, unknown> };
    return typeof pkg.scripts?.build === "string";
  } catch {
    return false;
  }
}

/** Runs `npm run build` in the project, its output on stderr (stdout is the command's own); resolves whether it passed. */
function build(cwd: string, logger: Pick<Logger, "error">): Promise<boolean> {
  return new Promise((resolveBuild) => {
    const child = spawn("npm", ["run", "build", "--silent"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(process.stderr, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.on("error", (error) => {
      logger.error(`could not run the build script: ${error.message}`);
      resolveBuild(false);
    });
    child.on("close", (code) => resolveBuild(code === 0));
  });
}

/** The project's own extension modules (not its dependencies'), and the folders they are built into. */
async function ownEntries(cwd: string) {
  const real = realpathSync(cwd);
  const { found } = await discoverExtensions({ cwd });
  const own = found.filter((f) => f.packageDir === real);
  const outputs = [...new Set(own.map((f) => relative(real, f.entry).split(sep)[0]!).filter((first) => !first.endsWith(".js")))];
  return { own, outputs };
}

/**
 * @example
 * await devCommand(parseCli(["dev", "--port", "0"], process.cwd()), process.env, console.log);
 */
export async function devCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const cwd = resolve(settings.cwd);
  versionProjectImports(cwd);
  const builds = hasBuildScript(cwd);
  if (builds) {
    process.stderr.write("mcp-host dev: building (npm run build)\n");
    if (!(await build(cwd, createLogger({ prefix: ["mcp-host"] })))) {
      process.stderr.write("mcp-host dev: the build failed; fix it and run mcp-host dev again\n");
      return 1;
    }
  }
  const deployment = await loadDeployment(settings, env, { logLevel: "info", selectionArgument: true });
  const { host, config, logger } = deployment;
  const served = await listenOrStop(deployment, servingOptionsOf(deployment, undefined, env));
  const { outputs } = await ownEntries(cwd);
  let version = 0;
  const stop = await watchFolder(cwd, builds ? outputs : [], async (paths) => {
    if (builds && !(await build(cwd, logger))) {
      logger.error("the build failed; still serving the previous version");
      return;
    }
    version += 1;
    const { own } = await ownEntries(cwd);
    const loaded = await loadDiscovered(own, { logger, version, options: config.extensions.options });
    if (loaded.failures.length > 0) {
      logger.error(`reloading failed (${loaded.failures.map((f) => f.error.code).join(", ")}); still serving the previous version`);
      return;
    }
    for (const e of loaded.extensions) await host.replace(e.extension, e.source);
    logger.info(`reloaded ${loaded.extensions.map((e) => e.extension.name).join(", ")} after a change to ${paths.join(", ")}`);
  });
  onShutdownSignals(async () => {
    await stop();
    await served.close();
  });
  // The banner last: whoever reads it as ready may change a file or send a signal at once.
  out(`mcp-host dev is serving "${host.name}" over MCP at ${served.url.href}`);
  out(`  what it offers:  ${new URL("/toolsets", served.baseUrl).href}`);
  for (const e of host.extensionStatuses()) out(`  extension ${e.name}${e.version ? `@${e.version}` : ""}: ${e.status}${e.error ? ` — ${e.error}` : ""}`);
  out(`  watching ${cwd} for changes${builds ? " (rebuilding with npm run build)" : ""}`);
  return new Promise<number>(() => {});
}
