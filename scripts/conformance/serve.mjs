// Starts `mcp-host serve` (the built CLI, dist/cli/main.js) with only the conformance extension on a free
// loopback port, its toolset as the default selection (so the bare /mcp URL serves the fixtures), waits for the
// MCP URL it prints, and stops it again — always: on success, on failure, and when the runner itself is
// interrupted. The server's log goes to a file, so the suites' output stays readable.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { join } from "node:path";

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/mcp)\b/;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * @returns {Promise<{ url: string, pid: number, command: string, stop(): Promise<number | string | null> }>} the MCP URL and a stop function
 */
export async function startServe({ root, logFile, extension, selection, env = {} }) {
  const cli = join(root, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error(`${cli} does not exist: run "npm run build" first`);
  // Its own (empty) config, so the repository's default deployment (mcp-host.config.yaml) does not join in.
  const config = join(root, "scripts", "conformance", "mcp-host.config.json");
  const args = [cli, "serve", selection, "--config", config, "--port", "0", "--host", "127.0.0.1", "--extension", extension];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const command = `${Object.entries(env)
    .map(([name, value]) => `${name}=${value} `)
    .join("")}node ${args.map((a) => (a === cli ? "dist/cli/main.js" : a)).join(" ")}`;
  const log = createWriteStream(logFile);
  log.write(`$ ${command}\n`);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));

  // If the runner dies (or is interrupted) the server must not outlive it.
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.once("exit", killNow);

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        let timer;
        const gaveUp = new Promise((resolve) => (timer = setTimeout(() => resolve("timeout"), STOP_TIMEOUT_MS)));
        if ((await Promise.race([exited, gaveUp])) === "timeout") {
          log.write(`\n[conformance runner] serve did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM; killing it\n`);
          child.kill("SIGKILL");
        }
        clearTimeout(timer);
      }
      const code = await exited;
      process.off("exit", killNow);
      await new Promise((resolve) => log.end(resolve));
      return code;
    })();
    return stopping;
  };

  try {
    const url = await new Promise((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => reject(new Error(`mcp-host serve printed no MCP URL within ${START_TIMEOUT_MS} ms (see ${logFile})`)), START_TIMEOUT_MS);
      child.stdout.on("data", (chunk) => {
        seen += chunk;
        const match = URL_LINE.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`mcp-host serve exited (${code}) before serving (see ${logFile})`));
      });
    });
    return { url, pid: child.pid, command, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
