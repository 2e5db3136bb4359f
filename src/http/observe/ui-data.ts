/**
 * What the operator page shows (docs/design.md §18), as JSON read from the host itself: toolsets with their tools,
 * extensions with status and errors, upstream servers with their state, live sessions and streams, the last
 * minutes of requests, the named endpoints with their server cards; and for the selection explorer, what one selection serves — its active toolsets, tools,
 * unknown names and instructions, the same answer `/toolsets` computes. With auth on, it is the caller's view.
 */
import type { EndpointLink } from "../../discovery/named-endpoints.js";
import type { HostDescription } from "../../host/describe.js";
import type { McpHost } from "../../host/host.js";
import { selectionFromRequest } from "../../host/selection.js";
import type { RateSlot } from "../../observe/request-rates.js";
import type { SelectionOptions } from "../http-options.js";
import { callerLabel } from "../../tasks/task.js";
import { defined } from "../../defined.js";

/** An upstream server as the page lists it. */
export interface UpstreamView {
  server: string;
  state: string;
  tools?: number;
  code?: string;
  message?: string;
}

export interface OverviewSources {
  host: McpHost;
  legacySessions(): number;
  openStreams(): number;
  rates(): RateSlot[];
  /** The gateway's servers; absent: what the host reports as unavailable. */
  upstreams?(): readonly UpstreamView[];
}

export interface Overview {
  service: string;
  version: string;
  toolsets: Array<{
    name: string;
    title: string;
    description?: string;
    default: boolean;
    always: boolean;
    extensions: string[];
    tools: Array<{ name: string; title?: string; description?: string }>;
  }>;
  extensions: HostDescription["extensions"];
  upstreams: UpstreamView[];
  /** The deployment's named endpoints the caller may reach, each with its server card (docs/discovery.md). */
  endpoints: EndpointLink[];
  sessions: { legacy: number; streams: number };
  rates: RateSlot[];
  /** MCP tasks (docs/tasks.md): how many by status, and the latest, by caller — never their arguments or results. */
  tasks: { counts: Record<string, number>; recent: TaskView[] };
}

/** One task as the operator page shows it. */
export interface TaskView {
  caller: string;
  tool: string;
  toolset: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
}

/** The latest tasks of the toolsets the viewer may reach (all, without auth), newest first. */
function tasksOf(host: McpHost, reachable: ReadonlySet<string> | undefined): Overview["tasks"] {
  const recent = host.tasks.store
    .recent(RECENT_TASKS)
    .filter((task) => reachable === undefined || reachable.has(task.toolset))
    .map((task) => ({
      caller: callerLabel(task.owner),
      tool: task.tool,
      toolset: task.toolset,
      status: task.status,
      ...defined({ statusMessage: task.statusMessage }),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    }));
  // A narrow viewer counts only what it may see.
  if (reachable === undefined) return { counts: host.tasks.counts(), recent };
  const counts: Record<string, number> = {};
  for (const task of recent) counts[task.status] = (counts[task.status] ?? 0) + 1;
  return { counts, recent };
}

/** Tasks the page lists at most. */
const RECENT_TASKS = 50;

/**
 * @example
 * const overview = overviewOf(sources, undefined); overview.toolsets.map((t) => t.name);
 */
export function overviewOf(sources: OverviewSources, permitted: readonly string[] | undefined, endpoints: readonly EndpointLink[] = []): Overview {
  const host = sources.host;
  const reachable = permitted === undefined ? undefined : new Set(permitted);
  const declared = host.declaredToolsets().filter((t) => reachable?.has(t.name) ?? true);
  const tools = host.offeredTools(declared.map((t) => t.name));
  // A caller sees the upstreams and extensions of the toolsets it may reach, nothing of the others.
  const upstreams = (
    sources.upstreams?.() ??
    host.unavailable().map((u) => ({ server: u.server, state: "unavailable", code: u.code, ...(u.message ? { message: u.message } : {}) }))
  ).filter((u) => reachable === undefined || reachable.has(u.server) || !host.declaredToolsets().some((t) => t.name === u.server));
  return {
    service: host.name,
    version: host.version,
    toolsets: declared.map((t) => ({
      name: t.name,
      title: t.title ?? t.name,
      ...defined({ description: t.description }),
      default: t.default,
      always: t.always,
      extensions: [...t.extensions],
      tools: tools
        .filter((tool) => tool.toolset === t.name)
        .map((tool) => ({ name: tool.name, ...(tool.title ? { title: tool.title } : {}), ...(tool.description ? { description: tool.description } : {}) })),
    })),
    extensions: host.extensionStatuses(permitted),
    upstreams: [...upstreams],
    endpoints: [...endpoints],
    sessions: { legacy: sources.legacySessions(), streams: sources.openStreams() },
    rates: sources.rates(),
    tasks: tasksOf(host, reachable),
  };
}

/** What one selection serves, for the explorer. */
export interface Exploration extends HostDescription {
  /** The query as given (without `?`). */
  query: string;
  instructions?: string;
  /** The selection's modifiers in words (`readonly; search over 312 tools`), absent when it used none. */
  modifierText?: string;
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function modifierTextOf(modifiers: HostDescription["modifiers"]): string | undefined {
  if (modifiers === undefined) return undefined;
  const parts = [
    ...(modifiers.readonly ? ["readonly"] : []),
    ...(modifiers.tools.length > 0 ? [`single tools ${modifiers.tools.join(", ")}`] : []),
    ...(modifiers.search ? [`search over ${countOf(modifiers.searchable ?? 0, "tool")} (listed: find_tools, call_tool)`] : []),
  ];
  return parts.join("; ");
}

/**
 * @example
 * await explore(host, "only=time,text", {}, undefined) // { active: [...], tools: [...], unknown: [...], instructions: "…" }
 */
export async function explore(host: McpHost, query: string, options: SelectionOptions, permitted: readonly string[] | undefined): Promise<Exploration> {
  const selection = selectionFromRequest({
    query: query.replace(/^\?/, ""),
    header: null,
    ...(options.ignoreKeys ? { ignoreKeys: options.ignoreKeys } : {}),
    ...(options.default ? { defaultSelection: options.default } : {}),
  });
  const description = await host.describe(selection, defined({ permitted }));
  const instructions = host.instructionsFor(description.active);
  const modifierText = modifierTextOf(description.modifiers);
  return {
    ...description,
    query: query.replace(/^\?/, ""),
    ...defined({ instructions, modifierText }),
  };
}
