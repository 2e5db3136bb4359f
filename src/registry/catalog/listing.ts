/**
 * One server's listing: its tools, resources, resource templates and prompts, every page followed, each list cut to
 * one entry per name (a server that lists a name twice keeps the first, with a warning). Tools are what a server is
 * for, so a failure to list them fails the listing; a failure to list the rest leaves that part empty, with a warning.
 */
import type { Client, Prompt, Resource, ResourceTemplateType, Tool } from "@modelcontextprotocol/client";
import type { Logger } from "../../logger.js";
import { failureDetail } from "../failure.js";
import type { Redactor } from "../redact.js";
import { listAllPages } from "./pagination.js";
import { defined } from "../../defined.js";

/** Everything one server offers, as read at one moment. */
export interface ServerListing {
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplateType[];
  prompts: Prompt[];
  /** The instructions the server sent when the connection was opened. */
  instructions?: string;
}

/**
 * Keeps the first item of each key; later ones are dropped with one warning per key (however often it repeats),
 * and items with an empty key skipped.
 * @example
 * firstOfEach([{ name: "a" }, { name: "a" }], (t) => t.name, "tool", warn) // [{ name: "a" }], warns once
 */
export function firstOfEach<T>(items: readonly T[], key: (item: T) => unknown, what: string, warn: (message: string) => void): T[] {
  const times = new Map<string, number>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (typeof k !== "string" || k === "") {
      warn(`the server listed a ${what} with no name; skipped it`);
      continue;
    }
    times.set(k, (times.get(k) ?? 0) + 1);
    if (times.get(k) === 1) out.push(item);
  }
  for (const [k, n] of times) if (n > 1) warn(`the server listed the ${what} "${k}" ${n === 2 ? "twice" : `${n} times`}; kept the first`);
  return out;
}

type ListMethod = "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list";

/** How a listing is read: where warnings go, the per-request timeout, and an abort for the start-up deadline. */
export interface ListingOptions {
  /** The server's logger. */
  logger: Logger;
  /** For the server's own words in a failure's detail. */
  redact: Redactor;
  timeoutMs: number;
  signal?: AbortSignal;
}

async function pages<T>(client: Client, method: ListMethod, field: string, options: ListingOptions): Promise<T[]> {
  const warn = (message: string) => options.logger.warn(message);
  return listAllPages<T>(
    async (cursor) => {
      const params = defined({ cursor });
      const result = (await client.request({ method, params }, { timeout: options.timeoutMs, signal: options.signal })) as Record<string, unknown>;
      const items = result[field];
      const next = result.nextCursor;
      return { items: Array.isArray(items) ? (items as T[]) : [], ...(typeof next === "string" ? { nextCursor: next } : {}) };
    },
    { warn },
  );
}

/**
 * Reads a connected server's whole listing (only the kinds its capabilities announce).
 * @example
 * const listing = await fetchListing(client, { logger: serverLog, redact, timeoutMs: 60_000 });
 */
export async function fetchListing(client: Client, options: ListingOptions): Promise<ServerListing> {
  const caps = client.getServerCapabilities() ?? {};
  const { logger } = options;
  const warn = (message: string) => logger.warn(message);
  const optional = async <T>(what: string, read: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await read();
    } catch (error) {
      logger.warn(`listing ${what} failed; treating it as empty`, { error: failureDetail(error, options.redact) });
      return [];
    }
  };
  const tools = caps.tools ? await pages<Tool>(client, "tools/list", "tools", options) : [];
  const [resources, templates, prompts] = await Promise.all([
    caps.resources ? optional("resources", () => pages<Resource>(client, "resources/list", "resources", options)) : [],
    caps.resources ? optional("resource templates", () => pages<ResourceTemplateType>(client, "resources/templates/list", "resourceTemplates", options)) : [],
    caps.prompts ? optional("prompts", () => pages<Prompt>(client, "prompts/list", "prompts", options)) : [],
  ]);
  const instructions = client.getInstructions();
  return {
    ...(typeof instructions === "string" && instructions.trim() !== "" ? { instructions } : {}),
    tools: firstOfEach(tools, (t) => t.name, "tool", warn),
    resources: firstOfEach(resources, (r) => r.uri, "resource", warn),
    templates: firstOfEach(templates, (t) => t.uriTemplate, "resource template", warn),
    prompts: firstOfEach(prompts, (p) => p.name, "prompt", warn),
  };
}
