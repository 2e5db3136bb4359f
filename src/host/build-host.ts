/**
 * `buildHost`: the register step (DESIGN.md §5). Takes extension objects (what a test passes) or the result of
 * `loadExtensions` (what the CLI passes), checks each one's shape, and makes an McpHost. A bad extension is
 * quarantined and reported, never fatal to the others; a taken name is refused with both sources named.
 */
import { isMcpHostError, McpHostError, messageOf } from "../errors.js";
import type { McpExtension } from "../extension/types.js";
import { validateExtension } from "../extension/validate.js";
import { McpHost } from "./host.js";
import type { HostOptions } from "./host-options.js";
import type { LoadResult } from "./loading/load.js";

function nameGuess(value: unknown, index: number): string {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === "string" && name.trim() ? name : `extension #${index}`;
}

/**
 * @example
 * const host = buildHost([timeExtension, textExtension], { name: "my-server" });
 * await host.start();
 */
export function buildHost(extensions: readonly McpExtension[] | LoadResult, options: HostOptions): McpHost {
  const entries: Array<{ extension: McpExtension; source: string }> = [];
  const invalid: Array<{ name: string; source: string; error: McpHostError }> = [];
  const list = Array.isArray(extensions)
    ? (extensions as readonly McpExtension[]).map((extension, i) => ({ value: extension as unknown, source: `buildHost() argument #${i}` }))
    : (extensions as LoadResult).extensions.map((loaded) => ({ value: loaded.extension as unknown, source: loaded.source }));
  list.forEach(({ value, source }, i) => {
    try {
      const extension = validateExtension(value, source);
      // A taken name costs only the later extension (DESIGN.md §4 rule 1), never the whole host.
      const taken = entries.find((e) => e.extension.name === extension.name);
      if (taken) {
        throw new McpHostError("EXTENSION_NAME_TAKEN", `extension name "${extension.name}" is taken: ${source} and ${taken.source} both use it; rename one`, { extension: extension.name });
      }
      entries.push({ extension, source });
    } catch (error) {
      const coded = isMcpHostError(error) ? error : new McpHostError("EXTENSION_INVALID", `${source}: ${messageOf(error)}`, { cause: error });
      invalid.push({ name: nameGuess(value, i), source, error: coded });
    }
  });
  const host = new McpHost(entries, options);
  const failures = Array.isArray(extensions) ? [] : (extensions as LoadResult).failures;
  // Load failures were logged by the loader; shape failures found here are logged once, here.
  for (const failure of invalid) host.logger.error(failure.error.message, { code: failure.error.code, extension: failure.name });
  for (const failure of [...failures, ...invalid]) host.reportFailed(uniqueName(host, failure.name), failure.source, failure.error);
  return host;
}

function uniqueName(host: McpHost, name: string): string {
  const taken = new Set(host.extensionStatuses().map((e) => e.name));
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name} (${n})`)) n += 1;
  return `${name} (${n})`;
}
