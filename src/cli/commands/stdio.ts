/**
 * `mcp-host stdio [SELECTION]`: one selection on stdin/stdout, both protocol eras, for desktop clients. Stdout
 * carries only the protocol; every log line goes to stderr. It says so on stderr when the selection names toolsets
 * nobody declared — a desktop client shows nothing else.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { assertNoUnknownToolsets, selectionFromRequest } from "../../host/selection.js";
import type { CliSettings } from "../args.js";
import { loadDeployment, refuseGatewayProblems } from "../deployment.js";
import { onShutdownSignals } from "../signals.js";
import { defined } from "../../defined.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * @example
 * await stdioCommand(parseCli(["stdio", "only=time"], cwd), process.env);
 */
export async function stdioCommand(settings: CliSettings, env: Env): Promise<number> {
  const deployment = await loadDeployment(settings, env, { logLevel: "warn", selectionArgument: false });
  await refuseGatewayProblems(deployment);
  const { host, config } = deployment;
  const query = settings.argument ?? config.selection.default ?? "";
  // As for a URL: the argument, else the deployment default (also for an argument of modifiers only, `readonly`).
  const selection = selectionFromRequest({
    query: settings.argument ?? "",
    ignoreKeys: config.selection.ignoreKeys,
    ...defined({ defaultSelection: config.selection.default }),
  });
  const first = await host.build(selection);
  if (first.unknown.length > 0) {
    if (config.selection.strict) {
      await host.stop().catch(() => {});
      assertNoUnknownToolsets(
        first.unknown,
        host.declaredToolsets().map((t) => t.name),
      );
    }
    const declared = host.declaredToolsets().map((t) => t.name);
    host.logger.warn(`the selection "${query}" names toolsets nobody declared: ${first.unknown.join(", ")} (declared: ${declared.join(", ") || "none"})`, {
      code: "SELECTION_UNKNOWN_TOOLSET",
    });
  }
  const handle = serveStdio(async (ctx) => {
    const built = await host.build(selection);
    return built.createServer({ era: ctx.era, transport: "stdio", selection: { active: built.toolsets, unknown: built.unknown } });
  });
  host.logger.info(`serving selection "${query}" over stdio: ${first.toolNames.join(", ")}`);
  const stop = async () => {
    await handle.close();
    await host.stop();
  };
  process.stdin.once("end", () => void stop().then(() => process.exit(0)));
  onShutdownSignals(stop);
  return new Promise<number>(() => {});
}
