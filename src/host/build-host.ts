/**
 * `buildHost`: the register step (docs/design.md §5). Takes what `loadExtensions` returned, its `extensions` entries,
 * or extension objects (what a test passes), checks each one's shape, and makes an McpHost. A bad extension is
 * quarantined and reported, never fatal to the others; a taken name is refused with both sources named; anything
 * that is none of the three shapes is refused at once with a message that says what was passed.
 */
import { describeValue } from "../describe-value.js";
import { isMcpHostError, McpHostError, messageOf } from "../errors.js";
import { toolsetNameProblem } from "../extension/toolset-name.js";
import type { McpExtension, ToolsetSpec } from "../extension/types.js";
import { validateExtension } from "../extension/validate.js";
import type { FailureRecord } from "./extensions/extension-record.js";
import { McpHost } from "./host.js";
import type { HostOptions } from "./host-options.js";
import type { LoadedExtension, LoadResult } from "./loading/load.js";

/** What `buildHost` accepts as its first argument. */
export type HostInput = LoadResult | readonly (McpExtension | LoadedExtension)[];

const EXPECTED = "an array of extension objects, the result of loadExtensions(), or that result's .extensions entries";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLoadResult(value: unknown): value is LoadResult {
  return isRecord(value) && Array.isArray(value.extensions) && Array.isArray(value.failures);
}

/** A `loadExtensions` entry: `{ extension, source, packageName }`, which has no `name` of its own. */
function isLoadedEntry(value: unknown): value is LoadedExtension {
  return isRecord(value) && value.name === undefined && isRecord(value.extension) && typeof value.source === "string";
}

function refuse(what: string): never {
  throw new McpHostError(
    "HOST_INPUT_INVALID",
    `buildHost() was given ${what}; it expects ${EXPECTED}. Example: buildHost(await loadExtensions({ cwd }), { name: "my-server" }).`,
  );
}

/** The entries to register, with where each came from, and the failures loading already found. */
function entriesOf(input: unknown): { entries: Array<{ value: unknown; source: string }>; failures: LoadResult["failures"] } {
  if (isLoadResult(input)) return { entries: input.extensions.map((e) => ({ value: e.extension, source: e.source })), failures: input.failures };
  if (!Array.isArray(input)) refuse(describeValue(input));
  const entries = input.map((item: unknown, i) =>
    isLoadedEntry(item) ? { value: item.extension, source: item.source } : { value: item, source: `buildHost() argument #${i}` },
  );
  return { entries, failures: [] };
}

function checkOptions(options: unknown): asserts options is HostOptions {
  if (!isRecord(options)) {
    throw new McpHostError(
      "HOST_INPUT_INVALID",
      `buildHost() options must be an object with at least a name, got ${describeValue(options)}; e.g. buildHost(extensions, { name: "my-server" }).`,
    );
  }
  if (typeof options.name !== "string" || options.name.trim() === "") {
    throw new McpHostError(
      "HOST_INPUT_INVALID",
      `buildHost() options.name must be the server name clients see, got ${describeValue(options.name)}; e.g. { name: "my-server" }.`,
    );
  }
  if (options.clock !== undefined) checkClock(options.clock);
}

/** A clock is what `HostOptions.clock` documents: now(), setTimeout() and setInterval(), each a function. */
function checkClock(clock: unknown): void {
  const missing = ["now", "setTimeout", "setInterval"].filter((method) => !isRecord(clock) || typeof clock[method] !== "function");
  if (missing.length === 0) return;
  const got = isRecord(clock) ? `an object without ${missing.map((m) => `${m}()`).join(", ")}` : describeValue(clock);
  throw new McpHostError(
    "HOST_INPUT_INVALID",
    `buildHost() options.clock must be a clock with now(), setTimeout() and setInterval(), got ${got}; leave it out for the system clock, or pass createManualClock() from mcp-host/testing.`,
  );
}

/** The toolsets that can be read off a value that failed the shape check — only when every one is well formed. */
function knownToolsets(value: unknown): ToolsetSpec[] {
  const toolsets = isRecord(value) ? value.toolsets : undefined;
  if (!Array.isArray(toolsets)) return [];
  const wellFormed = toolsets.every(
    (t) =>
      isRecord(t) &&
      typeof t.name === "string" &&
      toolsetNameProblem(t.name) === undefined &&
      [t.default, t.always].every((f) => f === undefined || typeof f === "boolean"),
  );
  return wellFormed ? (toolsets as ToolsetSpec[]) : [];
}

function guessName(value: unknown, index: number): string {
  const name = isRecord(value) ? value.name : undefined;
  return typeof name === "string" && name.trim() ? name : `extension #${index}`;
}

/**
 * @example
 * const host = buildHost(await loadExtensions({ cwd: process.cwd() }), { name: "my-server" });
 * const testHost = buildHost([timeExtension, textExtension], { name: "test" });
 * await host.start();
 */
export function buildHost(extensions: HostInput, options: HostOptions): McpHost {
  checkOptions(options);
  const { entries, failures: loadFailures } = entriesOf(extensions);
  const accepted: Array<{ extension: McpExtension; source: string }> = [];
  const invalid: FailureRecord[] = [];
  for (const [index, { value, source }] of entries.entries()) {
    try {
      const extension = validateExtension(value, source);
      // A taken name costs only the later extension (docs/design.md §4 rule 1), never the whole host.
      const taken = accepted.find((e) => e.extension.name === extension.name);
      if (taken) {
        throw new McpHostError("EXTENSION_NAME_TAKEN", `extension name "${extension.name}" is taken: ${source} and ${taken.source} both use it; rename one`, {
          extension: extension.name,
        });
      }
      accepted.push({ extension, source });
    } catch (error) {
      const coded = isMcpHostError(error) ? error : new McpHostError("EXTENSION_INVALID", `${source}: ${messageOf(error)}`, { cause: error });
      invalid.push({ name: guessName(value, index), source, error: coded, toolsets: knownToolsets(value) });
    }
  }
  const failures: FailureRecord[] = [...loadFailures.map((f) => ({ name: f.name, source: f.source, error: f.error, toolsets: [] })), ...invalid];
  const host = new McpHost({ extensions: accepted, failures }, options);
  // Load failures were logged by the loader; shape failures found here are logged once, here.
  for (const failure of invalid) host.logger.error(failure.error.message, { code: failure.error.code, extension: failure.name });
  return host;
}
