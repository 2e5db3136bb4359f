/**
 * The error a config file loader throws when the file itself is unusable (bad syntax, no default export, a
 * feature mcp-host refuses). readConfigFile turns it into problems of the report.
 */
import type { PathProblem } from "./problems.js";

/**
 * Thrown by the loaders; never escapes loadConfig.
 * @example
 * throw new ConfigFileError([{ code: "CONFIG_INVALID", path: ["$import"], message: "$import is not supported" }]);
 */
export class ConfigFileError extends Error {
  constructor(readonly problems: PathProblem[]) {
    super(problems.map((p) => p.message).join("; "));
    this.name = "ConfigFileError";
  }
}

/**
 * A file-level problem: `CONFIG_INVALID` at the root, the message starting with where in which file.
 * @example
 * throw fileProblem("/srv/.mcp-hostrc.yaml", "line 3, column 5: bad indentation");
 */
export function fileProblem(file: string, message: string): ConfigFileError {
  return new ConfigFileError([{ code: "CONFIG_INVALID", path: [], message: `${file}: ${message}` }]);
}
