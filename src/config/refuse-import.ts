/**
 * cosmiconfig merges in other files named by a `$import` key; a file written for it is refused, not read as an
 * unknown key, so its author learns why. mcp-host does not merge: secret references are resolved relative to the
 * one file that holds them, and a deployment's configuration should be readable in one place.
 */
import { basename } from "node:path";
import { ConfigFileError } from "./config-file-error.js";
import { isRecord } from "./schema-parts.js";

/**
 * Returns `value`, or throws when the configuration in it uses `$import`.
 * @example
 * refuseImport("/srv/.mcp-hostrc.yaml", { http: {} }) // { http: {} }
 */
export function refuseImport(file: string, value: unknown): unknown {
  const config = basename(file) === "package.json" && isRecord(value) ? value["mcp-host"] : value;
  if (isRecord(config) && Object.hasOwn(config, "$import")) {
    throw new ConfigFileError([
      {
        code: "CONFIG_INVALID",
        path: ["$import"],
        message: "$import is not supported; write the whole configuration in one file (secret references are relative to it)",
      },
    ]);
  }
  return value;
}
