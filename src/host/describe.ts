/**
 * The answer to "what does this endpoint offer, and why": the JSON of `/toolsets` and `list_server_toolsets`
 * (docs/design.md §7). Arrays are sorted so the answer is stable and comparable.
 */
import { byName, compareNames } from "../compare.js";
import type { DeclaredToolset } from "./extensions/toolset-catalog.js";
import type { ExtensionStatus } from "./extensions/extension-record.js";
import { defined } from "../defined.js";

export interface ToolsetDescription {
  name: string;
  title: string;
  description?: string;
  default: boolean;
  always: boolean;
  active: boolean;
  extensions: string[];
}

export interface ExtensionDescription {
  name: string;
  version?: string;
  status: ExtensionStatus;
  /** Where an extension that failed to load or validate came from (a package and path, or a buildHost argument). */
  source?: string;
  error?: string;
  code?: string;
}

export interface UnavailableDescription {
  server: string;
  phase: string;
  code: string;
  message?: string;
}

/** What a selection asks beyond its toolsets (docs/design.md §6), as the build applied it. */
export interface SelectionModifiers {
  /** Only tools annotated `readOnlyHint: true` are served. */
  readonly: boolean;
  /** The single tools `tools=` added from toolsets that are not active, as `<toolset>.<tool>`, sorted. */
  tools: string[];
  /** Tool-search mode: the client lists `find_tools` and `call_tool`, and `searchable` tools are reached through them. */
  search: boolean;
  /** In search mode, how many tools `find_tools` searches. */
  searchable?: number;
}

export interface HostDescription {
  toolsets: ToolsetDescription[];
  active: string[];
  tools: string[];
  unknown: string[];
  /** Present when the selection used a modifier (`readonly`, `tools=`, `search`) or the deployment turned search on. */
  modifiers?: SelectionModifiers;
  extensions: ExtensionDescription[];
  unavailable: UnavailableDescription[];
}

/** The hint `list_server_toolsets` gives, per transport: a URL picks toolsets over HTTP, the command line over stdio. */
export const HOW_TO_SELECT = {
  http: "Reconnect with the toolset in the URL: ?name adds it, ?only=a,b asks for exactly those, ?without=name leaves one out, ?tools=x,y adds single tools, ?readonly keeps only read-only tools, ?search lists find_tools and call_tool instead.",
  stdio:
    'This server runs over stdio, so its toolsets are chosen where it is started: give the selection as the argument of "mcp-host stdio" (e.g. mcp-host stdio "only=a,b") in the client\'s server configuration, and restart it.',
} as const;

/**
 * @example
 * describeFrom({ declared, active: ["core"], tools: ["x"], unknown: [], extensions: [], unavailable: [] })
 */
export function describeFrom(parts: {
  declared: readonly DeclaredToolset[];
  active: readonly string[];
  tools: readonly string[];
  unknown: readonly string[];
  extensions: readonly ExtensionDescription[];
  unavailable: readonly UnavailableDescription[];
  modifiers?: SelectionModifiers;
}): HostDescription {
  const active = new Set(parts.active);
  return {
    toolsets: parts.declared.map((t) => ({
      name: t.name,
      title: t.title ?? t.name,
      ...defined({ description: t.description }),
      default: t.default,
      always: t.always,
      active: active.has(t.name),
      extensions: [...t.extensions],
    })),
    active: [...parts.active].sort(),
    tools: [...parts.tools].sort(),
    unknown: [...parts.unknown].sort(),
    ...(parts.modifiers === undefined ? {} : { modifiers: { ...parts.modifiers, tools: [...parts.modifiers.tools] } }),
    extensions: [...parts.extensions].sort(byName),
    unavailable: [...parts.unavailable].sort((a, b) => compareNames(a.server, b.server)),
  };
}
