/**
 * The context an extension's `setup` receives: its options, a logger named after it, and the calls that change
 * its offer after start. Every change goes through `onChange`, which lets the host drop only the affected builds.
 */
import type { DynamicOffer, ExtensionContext } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { changedToolsets, contributionsByToolset, dynamicFromOffer, type ExtensionRecord } from "./extension-record.js";

/**
 * @example
 * const ctx = extensionContext(record, options, logger, (touched) => host.offerChanged(record, touched), (uri) => …);
 */
export function extensionContext(
  record: ExtensionRecord,
  options: Readonly<Record<string, unknown>>,
  logger: Logger,
  onChange: (touched: Set<string>) => void,
  onResourceUpdated: (uri: string) => void,
): ExtensionContext {
  // Only the toolsets whose contents really changed are reported, so clients of the extension's other
  // toolsets are not told (and their builds are kept).
  const change = (mutate: () => void) => {
    const before = contributionsByToolset(record);
    mutate();
    const changed = changedToolsets(before, contributionsByToolset(record));
    if (changed.size > 0) onChange(changed);
  };
  const d = () => record.dynamic;
  return {
    name: record.name,
    options,
    logger,
    signal: record.lifetime.signal,
    addToolset: (spec) => change(() => d().toolsets.set(spec.name, spec)),
    removeToolset: (name) => change(() => d().toolsets.delete(name)),
    addTool: (spec) => change(() => d().tools.set(spec.name, spec)),
    removeTool: (name) => change(() => d().tools.delete(name)),
    addResource: (spec) => change(() => d().resources.set(spec.uri, spec)),
    removeResource: (uri) => change(() => d().resources.delete(uri)),
    addResourceTemplate: (spec) => change(() => d().resourceTemplates.set(spec.uriTemplate, spec)),
    removeResourceTemplate: (uriTemplate) => change(() => d().resourceTemplates.delete(uriTemplate)),
    addPrompt: (spec) => change(() => d().prompts.set(spec.name, spec)),
    removePrompt: (name) => change(() => d().prompts.delete(name)),
    replaceOffer: (offer: DynamicOffer) =>
      change(() => {
        record.dynamic = dynamicFromOffer(offer);
      }),
    resourceUpdated: (uri) => onResourceUpdated(uri),
  };
}
