/**
 * The context an extension's `setup` receives: its options, a logger named after it, and the calls that change
 * its offer after start. Every change goes through `offerChanged`, which lets the host drop only the affected
 * builds; a toolset name that cannot be written in a URL is refused here as it is at validation.
 */
import type { Clock } from "../../clock.js";
import { McpHostError } from "../../errors.js";
import { toolsetNameProblem } from "../../extension/toolset-name.js";
import type { AuthStrategy, DynamicOffer, ExtensionContext, UnavailableReport } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { changedToolsets, contributionKey, contributionsByToolset, dynamicFromOffer, type ExtensionRecord } from "./extension-record.js";
import { defined } from "../../defined.js";

/** Removes the entries `matches` picks (every toolset's, when the caller named no toolset). */
function removeWhere<T>(map: Map<string, T>, matches: (item: T) => boolean): void {
  for (const [key, item] of [...map]) if (matches(item)) map.delete(key);
}

/** Where the context reports to, and the host's clock it hands on. */
export interface ContextHooks {
  clock: Clock;
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
 * const ctx = extensionContext(record, options, logger, { clock: systemClock, offerChanged: (touched) => …, resourceUpdated: (uri) => …, authStrategies: () => ({}) });
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
    ...[...(offer.tools ?? []), ...(offer.resources ?? []), ...(offer.resourceTemplates ?? []), ...(offer.prompts ?? []), ...(offer.skills ?? [])].map(
      (c) => c.toolset,
    ),
  ];
  return {
    name: record.name,
    options,
    logger,
    clock: hooks.clock,
    signal: record.lifetime.signal,
    addToolset: (spec) => {
      checkToolsetNames(record, "addToolset", [spec.name]);
      change(() => d().toolsets.set(spec.name, spec));
    },
    removeToolset: (name) => change(() => d().toolsets.delete(name)),
    addTool: (spec) => {
      checkToolsetNames(record, `addTool("${spec.name}")`, [spec.toolset]);
      change(() => d().tools.set(contributionKey(spec, spec.name), spec));
    },
    removeTool: (name, toolset) => change(() => removeWhere(d().tools, (t) => t.name === name && (toolset === undefined || t.toolset === toolset))),
    addResource: (spec) => {
      checkToolsetNames(record, `addResource("${spec.uri}")`, [spec.toolset]);
      change(() => d().resources.set(contributionKey(spec, spec.uri), spec));
    },
    removeResource: (uri, toolset) => change(() => removeWhere(d().resources, (r) => r.uri === uri && (toolset === undefined || r.toolset === toolset))),
    addResourceTemplate: (spec) => {
      checkToolsetNames(record, `addResourceTemplate("${spec.uriTemplate}")`, [spec.toolset]);
      change(() => d().resourceTemplates.set(contributionKey(spec, spec.uriTemplate), spec));
    },
    removeResourceTemplate: (uriTemplate, toolset) =>
      change(() => removeWhere(d().resourceTemplates, (r) => r.uriTemplate === uriTemplate && (toolset === undefined || r.toolset === toolset))),
    addPrompt: (spec) => {
      checkToolsetNames(record, `addPrompt("${spec.name}")`, [spec.toolset]);
      change(() => d().prompts.set(contributionKey(spec, spec.name), spec));
    },
    removePrompt: (name, toolset) => change(() => removeWhere(d().prompts, (p) => p.name === name && (toolset === undefined || p.toolset === toolset))),
    replaceOffer: (offer: DynamicOffer) => {
      checkToolsetNames(record, "replaceOffer", offerNames(offer));
      change(() => {
        record.dynamic = dynamicFromOffer(offer);
      });
    },
    resourceUpdated: (uri) => hooks.resourceUpdated(uri),
    authStrategies: () => hooks.authStrategies(),
    reportUnavailable: (report: readonly UnavailableReport[]) => {
      record.unavailable = report.map((u) => ({ server: u.server, phase: u.phase, code: u.code, ...defined({ message: u.message }) }));
    },
  };
}
