/**
 * `mcp-host toolsets [SELECTION] [--json]`: what a selection offers, as a table or as `describe()` JSON. Exits 1
 * when an extension failed, so a script can tell.
 */
import { assertNoUnknownToolsets, selectionFromRequest } from "../../host/selection.js";
import type { CliSettings } from "../args.js";
import { loadDeployment } from "../deployment.js";
import { formatToolsetsTable } from "../format-toolsets.js";
import { defined } from "../../defined.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * @example
 * await toolsetsCommand(parseCli(["toolsets", "only=time", "--json"], cwd), process.env, console.log);
 */
export async function toolsetsCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const { host, config } = await loadDeployment(settings, env, { logLevel: "warn", selectionArgument: false });
  try {
    // As for a URL: the argument, else the deployment default (also for an argument of modifiers only, `readonly`).
    const selection = selectionFromRequest({
      query: settings.argument ?? "",
      ignoreKeys: config.selection.ignoreKeys,
      ...defined({ defaultSelection: config.selection.default }),
    });
    if (config.selection.strict)
      assertNoUnknownToolsets(
        host.activeFor(selection).unknown,
        host.declaredToolsets().map((t) => t.name),
      );
    const description = await host.describe(selection);
    out(settings.json ? JSON.stringify(description, null, 2) : formatToolsetsTable(description));
    return description.extensions.some((e) => e.status === "failed") ? 1 : 0;
  } finally {
    await host.stop().catch(() => {});
  }
}
