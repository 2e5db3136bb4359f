/**
 * The registry's index: the names a caller sees for every server's tools, prompts and resources, and the way back
 * from any accepted form to (server, upstream name). Names follow the project rule (src/names.ts): bare when unique
 * across servers, `server__tool` for every party to a clash, cleaned and budgeted; `server__tool` and `server.tool`
 * are always accepted; a bare name several servers offer is ambiguous and never guessed.
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from "@modelcontextprotocol/client";
import { assignNames, cleanName, splitQualified } from "../../names.js";
import { compareNames, longestFirst } from "../../compare.js";
import type { RegistryPrompt, RegistryResource, RegistryResourceTemplate, RegistryTool } from "../types.js";
import type { ServerListing } from "./listing.js";

/** One server's part of the index: its listing and how its tools are judged. */
export interface IndexInput {
  server: string;
  listing: ServerListing;
  /** True for tools hidden by deniedTools (given the upstream name). */
  denied: (upstreamName: string) => boolean;
  destructive: (tool: Tool) => boolean;
}

/** The outcome of resolving a name a caller used. */
export type Resolution<T> =
  | { kind: "found"; entry: T }
  | { kind: "ambiguous"; choices: string[] }
  | { kind: "denied"; server: string; upstreamName: string }
  | { kind: "unknown" };

interface Named {
  name: string;
  server: string;
  upstreamName: string;
}

function nameEntries<T, E extends Named>(
  inputs: readonly IndexInput[],
  pick: (l: ServerListing) => readonly T[],
  nameOf: (t: T) => string,
  make: (server: string, item: T, name: string) => E,
): E[] {
  const claims = inputs.flatMap((i) => pick(i.listing).map((item) => ({ owner: i.server, name: nameOf(item), item })));
  const names = assignNames(claims);
  return claims.map((c, i) => make(c.owner, c.item, names[i]!));
}

function resolveNamed<E extends Named>(
  name: string,
  entries: readonly E[],
  byName: ReadonlyMap<string, E>,
  servers: readonly string[],
  deniedOn?: (server: string, n: string) => boolean,
): Resolution<E> {
  const exact = byName.get(name);
  if (exact) return { kind: "found", entry: exact };
  const split = splitQualified(name, servers);
  if (split) {
    const hit = entries.find((e) => e.server === split.owner && (e.upstreamName === split.name || cleanName(e.upstreamName) === split.name));
    if (hit) return { kind: "found", entry: hit };
    if (deniedOn?.(split.owner, split.name)) return { kind: "denied", server: split.owner, upstreamName: split.name };
  }
  const owners = entries.filter((e) => e.upstreamName === name || cleanName(e.upstreamName) === name);
  if (owners.length === 1) return { kind: "found", entry: owners[0]! };
  if (owners.length > 1) return { kind: "ambiguous", choices: owners.map((e) => e.name).sort(compareNames) };
  const deniedServer = servers.find((s) => deniedOn?.(s, name));
  if (deniedServer !== undefined) return { kind: "denied", server: deniedServer, upstreamName: name };
  return { kind: "unknown" };
}

/**
 * An immutable snapshot of what the registry offers, rebuilt whenever a server is (re-)listed.
 * @example
 * const index = RegistryIndex.build(["git", "fs"], inputs);
 * index.resolveTool("git.status") // { kind: "found", entry: { name: "git__status", server: "git", … } }
 */
export class RegistryIndex {
  readonly tools: readonly RegistryTool[];
  readonly prompts: readonly RegistryPrompt[];
  readonly resources: readonly RegistryResource[];
  readonly templates: readonly RegistryResourceTemplate[];
  private readonly toolByName: Map<string, RegistryTool>;
  private readonly promptByName: Map<string, RegistryPrompt>;
  private readonly resourceByUri: Map<string, RegistryResource>;
  private readonly deniedTools: Map<string, Set<string>>;

  private constructor(
    private readonly servers: readonly string[],
    inputs: readonly IndexInput[],
  ) {
    const visible = inputs.map((i) => ({ ...i, listing: { ...i.listing, tools: i.listing.tools.filter((t) => !i.denied(t.name)) } }));
    this.deniedTools = new Map(inputs.map((i) => [i.server, new Set(i.listing.tools.filter((t) => i.denied(t.name)).map((t) => t.name))]));
    const judge = new Map(inputs.map((i) => [i.server, i.destructive]));
    this.tools = nameEntries(
      visible,
      (l) => l.tools,
      (t: Tool) => t.name,
      (server, definition, name) => ({
        name,
        server,
        upstreamName: definition.name,
        destructive: judge.get(server)!(definition),
        definition,
      }),
    );
    this.prompts = nameEntries(
      visible,
      (l) => l.prompts,
      (p: Prompt) => p.name,
      (server, definition, name) => ({ name, server, upstreamName: definition.name, definition }),
    );
    this.resources = RegistryIndex.nameResources(visible);
    this.templates = visible.flatMap((i) => i.listing.templates.map((definition: ResourceTemplateType) => ({ server: i.server, definition })));
    this.toolByName = new Map(this.tools.map((t) => [t.name, t]));
    this.promptByName = new Map(this.prompts.map((p) => [p.name, p]));
    this.resourceByUri = new Map(this.resources.map((r) => [r.uri, r]));
  }

  /** Builds the index over the servers (in spec order) that have a listing. */
  static build(servers: readonly string[], inputs: readonly IndexInput[]): RegistryIndex {
    return new RegistryIndex(servers, inputs);
  }

  private static nameResources(inputs: readonly IndexInput[]): RegistryResource[] {
    const owners = new Map<string, number>();
    for (const i of inputs) for (const r of i.listing.resources) owners.set(r.uri, (owners.get(r.uri) ?? 0) + 1);
    return inputs.flatMap((i) =>
      i.listing.resources.map((definition: Resource) => ({
        uri: (owners.get(definition.uri) ?? 0) > 1 ? `${i.server}:${definition.uri}` : definition.uri,
        server: i.server,
        upstreamUri: definition.uri,
        definition,
      })),
    );
  }

  /** Finds the tool a caller means by a listed, qualified (`server__tool`, `server.tool`) or bare name. */
  resolveTool(name: string): Resolution<RegistryTool> {
    return resolveNamed(name, this.tools, this.toolByName, this.servers, (server, n) => this.deniedTools.get(server)?.has(n) ?? false);
  }

  /** Finds a prompt the same way as a tool. */
  resolvePrompt(name: string): Resolution<RegistryPrompt> {
    return resolveNamed(name, this.prompts, this.promptByName, this.servers);
  }

  /** Finds a listed resource by its listed form, its `server:uri` form, or a bare URI that only one server lists. */
  resolveResource(uri: string): Resolution<RegistryResource> {
    const exact = this.resourceByUri.get(uri);
    if (exact) return { kind: "found", entry: exact };
    for (const server of [...this.servers].sort(longestFirst)) {
      if (!uri.startsWith(`${server}:`)) continue;
      const rest = uri.slice(server.length + 1);
      const hit = this.resources.find((r) => r.server === server && r.upstreamUri === rest);
      if (hit) return { kind: "found", entry: hit };
    }
    const owners = this.resources.filter((r) => r.upstreamUri === uri);
    if (owners.length > 1) return { kind: "ambiguous", choices: owners.map((r) => r.uri).sort(compareNames) };
    return { kind: "unknown" };
  }
}
