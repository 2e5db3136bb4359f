/**
 * The YAML and JSON loaders, plugged into cosmiconfig (whose own quote the offending text: docs/design.md §12). A
 * syntax error becomes a problem with the file, line and column and a reason in our words; duplicate keys are
 * errors, not silently last-wins; a file holding only comments counts as empty.
 */
import { createRequire } from "node:module";
import { fileProblem } from "./config-file-error.js";
import { jsonSyntaxError } from "./json-syntax.js";
import { refuseImport } from "./refuse-import.js";

type Yaml = typeof import("yaml");
let yaml: Yaml | undefined;

/** The yaml package, loaded on the first YAML file: most starts (stdio from a desktop client) have none to read. */
function yamlPackage(): Yaml {
  yaml ??= createRequire(import.meta.url)("yaml") as Yaml;
  return yaml;
}

const YAML_REASONS: Record<string, string> = {
  DUPLICATE_KEY: "a key appears twice in one map",
  BAD_INDENT: "the indentation is inconsistent, or a { or [ is not closed",
  TAB_AS_INDENT: "a tab is used for indentation; use spaces",
  MULTIPLE_DOCS: "the file holds several YAML documents; keep one",
  MISSING_CHAR: "a closing bracket, quote or comma is missing",
  BLOCK_AS_IMPLICIT_KEY: "a nested block is used as a key (a missing colon or indentation?)",
  MULTILINE_IMPLICIT_KEY: "a key spans several lines (a missing colon or indentation?)",
  TAG_RESOLVE_FAILED: "a value could not be read (a plain word where a quoted string is needed?)",
  BAD_SCALAR_START: "a value starts with a reserved character; quote it",
  UNEXPECTED_TOKEN: "unexpected text; check quoting and indentation",
  BAD_DQ_ESCAPE: "a double-quoted string contains an unknown escape",
  BAD_ALIAS: "an alias refers to an anchor that does not exist",
  KEY_OVER_1024_CHARS: "a key is longer than 1024 characters",
};

/**
 * Reads YAML (also the format of `.mcp-hostrc`, and JSON is YAML too).
 * @example
 * loadYamlText("/srv/.mcp-hostrc.yaml", "http:\n  port: 3000\n") // { http: { port: 3000 } }
 */
export function loadYamlText(file: string, content: string): unknown {
  const doc = yamlPackage().parseDocument(content, { uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    // Only the position and the code are used: yaml's message quotes the text around the mistake.
    const at = error.linePos?.[0];
    const where = at ? `line ${at.line}, column ${at.col}` : "somewhere";
    throw fileProblem(file, `${where}: not valid YAML: ${YAML_REASONS[error.code] ?? "the YAML syntax is broken here"}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    throw fileProblem(file, "not valid YAML: aliases expand too far (more than 100); write the values out");
  }
  return refuseImport(file, value ?? undefined);
}

/**
 * Reads JSON (and package.json, whose `mcp-host` key holds the configuration).
 * @example
 * loadJsonText("/srv/.mcp-hostrc.json", '{"http": {"port": 3000}}') // { http: { port: 3000 } }
 */
export function loadJsonText(file: string, content: string): unknown {
  const error = jsonSyntaxError(content);
  if (error) throw fileProblem(file, `line ${error.line}, column ${error.column}: not valid JSON: ${error.reason}`);
  const value: unknown = JSON.parse(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
  return refuseImport(file, value ?? undefined);
}
