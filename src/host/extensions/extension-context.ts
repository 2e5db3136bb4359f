/**
 * The context an extension's `setup` receives: its options, a logger named after it, and the calls that change
 * its offer after start. Every change goes through `offerChanged`, which lets the host drop only the affected
 * builds; a toolset name that cannot be written in a URL is refused here as it is at validation.
 */
import { McpHostError } from "../../errors.js";
import { toolsetNameProblem } from "../../extension/toolset-name.js";
import type { AuthStrategy, DynamicOffer, ExtensionContext, UnavailableReport } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { changedToolsets, contributionsByToolset, dynamicFromOffer, type ExtensionRecord } from "./extension-record.js";

/** Where the context reports to. */
export interface ContextHooks {
  /** The toolsets whose contents changed (never empty). */
  offerChanged(touched: Set<string>): void;
  resourceUpdated(uri: string): void;
  /** The auth strategies the registered extensions contribute, by kind (first in load order wins). */
  authStrategies(): Readonly<Record<string, AuthStrategy>>;
}

function checkToolsetNames(record: ExtensionRecord, call: string, names: Iterable<string | undefined>): void {
  for (const name of names) {
    if (name === undefined) continue;
    const problem = toolsetNameProblem(name);
    if (problem) throw new McpHostError("EXTENSION_INVALID", `[extension ${record.name}] ${call}: ${problem}`, { extension: record.name });
  }
}

/**
 * @example
 * const ctx = extensionContext(record, options, logger, { offerChanged: (touched) => …, resourceUpdated: (uri) => …, authStrategies: () => ({}) });
 */
export function extensionContext(record: ExtensionRecord, options: Readonly<Record<string, unknown>>, logger: Logger, hooks: ContextHooks): ExtensionContext {
  // Only the toolsets whose contents really changed are reported, so clients of the extension's other
  // toolsets are not told (and their builds are kept).
  const change = (mutate: () => void) => {
    const before = contributionsByToolset(record);
    mutate();
    const changed = changedToolsets(before, contributionsByToolset(record));
    if (changed.size > 0) hooks.offerChanged(changed);
  };
  const d = () => record.dynamic;
  const offerNames = (offer: DynamicOffer) => [
    ...(offer.toolsets ?? []).map((t) => t.name),
    ...[...(offer.tools ?? []), ...(offer.resources ?? []), ...(offer.resourceTemplates ?? []), ...(offer.prompts ?? [])].map((c) => c.toolset),
  ];
  return {
    name: record.name,
    options,
    logger,
    signal: record.lifetime.signal,
    addToolset: (spec) => {
      checkToolsetNames(record, "addToolset", [spec.name]);
      change(() => d().toolsets.set(spec.name, spec));
    },
    removeToolset: (name) => change(() => d().toolsets.delete(name)),
    addTool: (spec) => {
      checkToolsetNames(record, `addTool("${spec.name}")`, [spec.toolset]);
      change(() => d().tools.set(spec.name, spec));
    },
    removeTool: (name) => change(() => d().tools.delete(name)),
    addResource: (spec) => {
      checkToolsetNames(record, `addResource("${spec.uri}")`, [spec.toolset]);
      change(() => d().resources.set(spec.uri, spec));
    },
    removeResource: (uri) => change(() => d().resources.delete(uri)),
    addResourceTemplate: (spec) => {
      checkToolsetNames(record, `addResourceTemplate("${spec.uriTemplate}")`, [spec.toolset]);
      change(() => d().resourceTemplates.set(spec.uriTemplate, spec));
    },
    removeResourceTemplate: (uriTemplate) => change(() => d().resourceTemplates.delete(uriTemplate)),
    addPrompt: (spec) => {
      checkToolsetNames(record, `addPrompt("${spec.name}")`, [spec.toolset]);
      change(() => d().prompts.set(spec.name, spec));
    },
    removePrompt: (name) => change(() => d().prompts.delete(name)),
    replaceOffer: (offer: DynamicOffer) => {
      checkToolsetNames(record, "replaceOffer", offerNames(offer));
      change(() => {
        record.dynamic = dynamicFromOffer(offer);
      });
    },
    resourceUpdated: (uri) => hooks.resourceUpdated(uri),
    authStrategies: () => hooks.authStrategies(),
    reportUnavailable: (report: readonly UnavailableReport[]) => {
      record.unavailable = report.map((u) => ({ server: u.server, phase: u.phase, code: u.code, ...(u.message === undefined ? {} : { message: u.message }) }));
    },
  };
}
