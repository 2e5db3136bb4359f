/**
 * The cosmiconfig 9 explorer that finds and loads the configuration (docs/design.md §12): module name `mcp-host`,
 * cosmiconfig's own search places less TypeScript, then `mcp-host.config.{json,yaml,yml}`; mcp-host's loaders (YAML
 * and JSON with line and column, JavaScript imported afresh on every load); `searchStrategy: "none"`, so no folder
 * above the project folder and no global folder is read; no cache, and a new explorer for every load, so a reload
 * sees every edit — the meta configuration's too.
 *
 * cosmiconfig reads its meta configuration from `process.cwd()` when an explorer is made (9.0.2's `cosmiconfig()`
 * runs a synchronous search of the working folder). A desktop client starts `mcp-host stdio --cwd /project` from a
 * folder of its own choosing — the home folder, whose `.config/config.*` belongs to other programs. So the explorer
 * is made with `process.cwd()` answering the project folder: the call is synchronous, and the real function is back
 * before anything else runs (the process's working folder itself never changes). meta-config.ts has checked that
 * folder's meta configuration with mcp-host's loaders first.
 */
import { createRequire } from "node:module";
import type { Loader, PublicExplorer } from "cosmiconfig";
import { loadJsFile } from "./load-js.js";
import { loadJsonText, loadYamlText } from "./parse-text.js";

type Cosmiconfig = typeof import("cosmiconfig");
let library: Cosmiconfig | undefined;

/** cosmiconfig, loaded on the first folder that may hold a configuration (most stdio starts have none). */
function cosmiconfigPackage(): Cosmiconfig {
  library ??= createRequire(import.meta.url)("cosmiconfig") as Cosmiconfig;
  return library;
}

/** The formats mcp-host reads beside cosmiconfig's own names, last in the search. */
const EXTRA_PLACES = ["mcp-host.config.json", "mcp-host.config.yaml", "mcp-host.config.yml"];

/**
 * Where a configuration is looked for in the project folder, in this order (after what a meta configuration adds).
 * @example
 * configSearchPlaces()[0] // "package.json" (its "mcp-host" key)
 */
export function configSearchPlaces(): string[] {
  const places = cosmiconfigPackage()
    .getDefaultSearchPlaces("mcp-host")
    .filter((place) => !place.endsWith(".ts"));
  return [...places, ...EXTRA_PLACES.filter((place) => !places.includes(place))];
}

const js: Loader = (file) => loadJsFile(file);

/** mcp-host's loaders, by extension (`noExt`: `.mcp-hostrc`, read as YAML, which JSON also is). */
const LOADERS: Record<string, Loader> = {
  ".json": loadJsonText,
  ".yaml": loadYamlText,
  ".yml": loadYamlText,
  noExt: loadYamlText,
  ".js": js,
  ".mjs": js,
  ".cjs": js,
};

/**
 * A new explorer for the project folder `dir`, its meta configuration read from `dir`.
 * @example
 * const found = await configExplorer("/srv/app").search("/srv/app");
 */
export function configExplorer(dir: string): PublicExplorer {
  const { cosmiconfig } = cosmiconfigPackage();
  const workingFolder = process.cwd;
  process.cwd = () => dir;
  try {
    return cosmiconfig("mcp-host", { searchPlaces: configSearchPlaces(), loaders: LOADERS, searchStrategy: "none", cache: false });
  } finally {
    process.cwd = workingFolder;
  }
}
