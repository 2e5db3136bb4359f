/**
 * McpHost: owns the registered extensions and the builds made from them (DESIGN.md §7). Everything that changes
 * per request — which toolsets are on, which tool extensions apply, what a client ends up seeing — is decided
 * here, while the extensions stay the same. One extension failing never stops the others.
 */
import { McpHostError, messageOf } from "../errors.js";
import type { McpExtension } from "../extension/types.js";
import { createLogger, type Logger } from "../logger.js";
import { BuildCache } from "./build/build-cache.js";
import { ChangeFeed, type OfferChange } from "./extensions/change-feed.js";
import { compileTables, type CompiledTool } from "./build/build-tables.js";
import type { BuiltCore, BuiltServer, NodeHandler } from "./built-server.js";
import { describeFrom, type ExtensionDescription, type HostDescription, type UnavailableDescription } from "./describe.js";
import { runOnServerHooks } from "./build/draft.js";
import { extensionContext } from "./extensions/extension-context.js";
import { disposeAll, runSetup } from "./extensions/extension-lifecycle.js";
import { emptyDynamic, toolsetsTouchedBy, type ExtensionRecord } from "./extensions/extension-record.js";
import { gatherContents } from "./build/gather.js";
import type { HostOptions } from "./host-options.js";
import { composeInstructions } from "./build/instructions.js";
import { requestStateSealer, type RequestStateSealer } from "./protocol/request-state.js";
import { createSdkServer, type ServerCore } from "./protocol/sdk-server.js";
import { resolveSelection, selectionKey, type Selection } from "./selection.js";
import { declaredToolsetsFrom, type DeclaredToolset } from "./extensions/toolset-catalog.js";
import { toolsetsTool, TOOLSETS_TOOL_NAME } from "./protocol/toolsets-tool.js";

export type { OfferChange } from "./extensions/change-feed.js";

/** A tool as offered (tool extensions applied), without building a server. */
export interface OfferedTool {
  name: string;
  toolset: string;
  extension: string;
  title?: string;
  description?: string;
}

type Listener<T> = (value: T) => void;

/**
 * The host. Make one with `buildHost` (which checks each extension's shape first).
 * @example
 * const host = buildHost([time, text], { name: "tools" });
 * await host.start();
 * const built = await host.build(parseSelection("only=time"));
 * await host.stop();
 */
export class McpHost {
  readonly name: string;
  readonly version: string;
  readonly options: Readonly<HostOptions>;
  readonly logger: Logger;
  private readonly records: ExtensionRecord[] = [];
  private readonly cache: BuildCache<BuiltCore>;
  private revisionNumber = 0;
  private started = false;
  private stopped = false;
  private readonly resourceListeners = new Set<Listener<string>>();
  private readonly handlers = new Map<string, NodeHandler>();
  private lastCatalogSignature = "";
  private readonly requestState: RequestStateSealer;
  private catalog: { revision: number; toolsets: DeclaredToolset[] } | undefined;
  private readonly changes: ChangeFeed;
  private handlerFactory: ((host: McpHost, key: string) => NodeHandler) | undefined;
  /** Upstream servers that are down, reported by `describe()` (set by the gateway). */
  unavailableSource: (() => UnavailableDescription[]) | undefined;

  constructor(extensions: readonly { extension: McpExtension; source: string }[], options: HostOptions) {
    this.options = options;
    this.name = options.name;
    this.version = options.version ?? "0.0.0";
    this.logger = options.logger ?? createLogger({ prefix: ["mcp-host"] });
    this.cache = new BuildCache(options.maxBuilds ?? 256);
    this.changes = new ChangeFeed(options.listChangedDebounceMs ?? 50);
    this.requestState = requestStateSealer(options.requestStateKey);
    for (const { extension, source } of extensions) this.register(extension, source);
  }

  /** The build revision: bumped whenever what is on offer may have changed. */
  get revision(): number {
    return this.revisionNumber;
  }

  private register(extension: McpExtension, source: string): ExtensionRecord {
    const taken = this.records.find((r) => r.name === extension.name);
    if (taken) {
      throw new McpHostError("EXTENSION_NAME_TAKEN", `extension name "${extension.name}" is taken: ${source} and ${taken.source} both use it; rename one`, { extension: extension.name });
    }
    const record: ExtensionRecord = {
      extension,
      name: extension.name,
      source,
      status: extension.activation === "onToolset" ? "dormant" : "pending",
      dynamic: emptyDynamic(),
      lifetime: new AbortController(),
    };
    this.records.push(record);
    this.records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.revisionNumber += 1;
    return record;
  }

  /** Records a quarantined extension (e.g. one that failed to load) so `/toolsets` and `/healthz` report it. */
  reportFailed(name: string, source: string, error: McpHostError): void {
    const record = this.register({ name }, source);
    record.status = "failed";
    record.error = error;
  }

  /**
   * Sets up every eager extension (in parallel, each under the setup timeout). A failure quarantines only that one.
   * @example
   * await host.start(); host.describe(parseSelection(""));
   */
  async start(): Promise<void> {
    if (this.started) throw new McpHostError("ALREADY_STARTED", `host "${this.name}" is already started; call stop() before starting it again`);
    this.started = true;
    await Promise.all(this.records.filter((r) => r.status === "pending").map((r) => this.setUp(r)));
    // Drop what was built while setups ran, without a change report: no client was served before start, and a
    // report for "everything" would swallow the next real change's toolsets into the same burst.
    this.revisionNumber += 1;
    this.cache.invalidate();
    this.lastCatalogSignature = this.catalogSignature();
  }

  /** Disposes every extension in reverse load order; throws one AggregateError when any dispose failed. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.changes.cancel();
    this.cache.invalidate();
    await disposeAll(this.records);
  }

  /**
   * Registers an extension after start: it is set up at once (or left dormant), and every build is dropped.
   * @example
   * await host.add(defineExtension({ name: "late", tools: [...] }));
   */
  async add(extension: McpExtension, source = "host.add()"): Promise<void> {
    const record = this.register(extension, source);
    if (this.started && record.status === "pending") await this.setUp(record);
    this.bump(undefined);
  }

  private async setUp(record: ExtensionRecord): Promise<void> {
    const logger = this.logger.child(record.name);
    const ctx = extensionContext(
      record,
      this.options.extensionOptions?.[record.name] ?? {},
      logger,
      (touched) => this.offerChanged(record, touched),
      (uri) => this.resourceUpdated(uri),
    );
    try {
      await runSetup(record, ctx, this.options.setupTimeoutMs ?? 10_000);
      if (record.status === "pending" || record.status === "dormant") record.status = "ready";
    } catch (error) {
      record.status = "failed";
      record.error = error instanceof McpHostError ? error : new McpHostError("EXTENSION_SETUP_FAILED", `[extension ${record.name}] ${messageOf(error)}`, { extension: record.name, cause: error });
      logger.error(record.error.message, { code: record.error.code });
    }
  }

  private offerChanged(record: ExtensionRecord, touched: Set<string>): void {
    if (record.status !== "ready") return;
    // A change to which toolsets are default or always-on changes what every URL resolves to.
    const signature = this.catalogSignature();
    this.bump(signature !== this.lastCatalogSignature ? undefined : touched);
  }

  private catalogSignature(): string {
    return declaredToolsetsFrom(this.records)
      .filter((t) => t.default || t.always)
      .map((t) => `${t.name}:${t.always ? "always" : "default"}`)
      .join("|");
  }

  private resourceUpdated(uri: string): void {
    for (const listener of this.resourceListeners) listener(uri);
  }

  /** Drops builds (all, or those with the given toolsets), bumps the revision and tells listeners once per burst. */
  private bump(toolsets: Set<string> | undefined): void {
    this.revisionNumber += 1;
    this.lastCatalogSignature = this.catalogSignature();
    const dropped = this.cache.invalidate(toolsets);
    if (this.started) this.changes.record(toolsets, dropped, () => this.revisionNumber);
  }

  /** Hears offer changes (debounced: one call per burst). Returns an unsubscribe function. */
  onOfferChange(listener: Listener<OfferChange>): () => void {
    return this.changes.subscribe(listener);
  }

  /** Hears `ctx.resourceUpdated(uri)` from extensions. Returns an unsubscribe function. */
  onResourceUpdated(listener: Listener<string>): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Drops every cached build and bumps the revision. */
  forgetBuilt(): void {
    this.bump(undefined);
  }

  /** Every declared toolset, sorted by name (dormant and quarantined extensions' included). */
  declaredToolsets(): DeclaredToolset[] {
    // Read on every request (to resolve its selection), so it is computed once per revision: every change to
    // what extensions declare or contribute bumps the revision.
    if (this.catalog?.revision !== this.revisionNumber) this.catalog = { revision: this.revisionNumber, toolsets: declaredToolsetsFrom(this.records) };
    return this.catalog.toolsets;
  }

  /** The active and unknown toolsets for a selection, without building anything. */
  activeFor(selection: Selection): { active: string[]; unknown: string[] } {
    return resolveSelection(this.declaredToolsets(), selection);
  }

  /** The composed instructions for an active set. */
  instructionsFor(active: readonly string[]): string | undefined {
    return composeInstructions(this.options.instructions, this.declaredToolsets(), active);
  }

  /** The tools on offer (tool extensions applied) for the given toolsets (default: all declared), by name. */
  offeredTools(toolsets?: readonly string[]): OfferedTool[] {
    const active = new Set(toolsets ?? this.declaredToolsets().map((t) => t.name));
    const silent = this.logger.child("offered-tools");
    return gatherContents(this.records, active, { ...silent, warn: () => {}, debug: () => {} })
      .tools.map((t) => ({ name: t.name, toolset: t.toolset, extension: t.extension, ...(t.title ? { title: t.title } : {}), ...(t.description ? { description: t.description } : {}) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.toolset < b.toolset ? -1 : 1));
  }

  /** Sets up the dormant extensions that declare any of `names` (DESIGN.md §4 rule 11). */
  private async wake(names: Iterable<string>): Promise<void> {
    // On every request: look the names up in the cached catalog (which knows each toolset's extensions) rather
    // than walking every dormant extension's contributions.
    const wanted = new Set(names);
    if (wanted.size === 0) return;
    const owners = new Set(this.declaredToolsets().flatMap((t) => (wanted.has(t.name) ? t.extensions : [])));
    const sleepers = this.records.filter((r) => r.status === "dormant" && owners.has(r.name));
    if (sleepers.length === 0) return;
    await Promise.all(
      sleepers.map((r) => {
        r.waking ??= this.setUp(r).then(() => {
          this.logger.info(`woke extension "${r.name}" (status ${r.status})`, { extension: r.name });
          this.bump(r.status === "ready" ? toolsetsTouchedBy(r) : undefined);
        });
        return r.waking;
      }),
    );
  }

  private ensureRunning(): void {
    if (!this.started || this.stopped) {
      throw new McpHostError("HOST_NOT_STARTED", `host "${this.name}" is ${this.stopped ? "stopped" : "not started"}; call start() first`);
    }
  }

  /**
   * The BuiltServer for a selection: from the cache when the same active set was built before.
   * @example
   * const built = await host.build(parseSelection("only=spaces")); built.toolNames;
   */
  async build(selection: Selection): Promise<BuiltServer> {
    this.ensureRunning();
    await this.wake([...selection.named, ...(selection.only ?? [])]);
    const { active, unknown } = this.activeFor(selection);
    const core = await this.buildActive(active);
    return this.withUnknown(core, active, unknown);
  }

  private withUnknown(core: BuiltCore, active: readonly string[], unknown: readonly string[]): BuiltServer {
    const selection = { active, unknown };
    return Object.freeze({
      ...core,
      unknown,
      createServer: (info = {}) => createSdkServer(core.core, { era: "legacy", selection, ...info }),
    });
  }

  /** The cached build for an active set (already resolved). Used by the serving layer per request. */
  buildActive(active: readonly string[]): Promise<BuiltCore> {
    this.ensureRunning();
    const key = selectionKey(active);
    return this.cache.getOrBuild(key, active, async () => this.compile(key, active));
  }

  private compile(key: string, active: readonly string[]): BuiltCore {
    const revision = this.revisionNumber;
    const logger = this.logger.child(`build ${key || "(none)"}`);
    const contents = gatherContents(this.records, new Set(active), logger);
    const draft = runOnServerHooks(contents, this.instructionsFor(active), key, active, logger);
    let toolNames: string[] = [];
    const extra: CompiledTool[] = [];
    const wantsToolsetsTool = (this.options.toolsetsTool ?? true) && !draft.tools.some((t) => t.name === TOOLSETS_TOOL_NAME);
    // Declared toolsets are read when the tool is called, as describe() reads them: a build of an unrelated toolset
    // survives another extension's offer change, and must not report the catalog as it was when it was built.
    if (wantsToolsetsTool) extra.push(toolsetsTool((a, u) => this.describeActive(a, u, toolNames)));
    const tables = compileTables(draft, logger, extra);
    toolNames = tables.tools.map((t) => t.name);
    const core: ServerCore = { name: this.name, version: this.version, instructions: draft.instructions, tables, logger: this.logger, toolTimeoutMs: this.options.toolTimeoutMs ?? 60_000, requestState: this.requestState };
    const handler = this.handlerFor(key);
    const factory = this.options.serverFactory ?? ((parts) => parts.handler);
    const server = factory({ name: this.name, instructions: draft.instructions, toolsets: active, key, handler });
    return Object.freeze({ key, revision, toolsets: [...active], toolNames, instructions: draft.instructions, server, core });
  }

  /**
   * Sets what makes each selection's MCP handler (the serving layer does; see selection-handler.ts). Builds made
   * before are dropped so every `built.server` wraps a handler of the new kind.
   */
  setHandlerFactory(factory: (host: McpHost, key: string) => NodeHandler): void {
    this.handlerFactory = factory;
    this.handlers.clear();
    this.cache.invalidate();
  }

  /** The stable MCP handler for a selection key (it survives rebuilds, so listeners keep listening). */
  handlerFor(key: string): NodeHandler {
    const existing = this.handlers.get(key);
    if (existing) return existing;
    const factory = this.handlerFactory;
    if (!factory) {
      return (_req, res) => {
        res.statusCode = 501;
        res.end("this host is not served over HTTP: call serveSelections(host) or createHostApp(host) first");
      };
    }
    const handler = factory(this, key);
    this.handlers.set(key, handler);
    return handler;
  }

  /** The statuses of every extension, for `/toolsets` and `/healthz`. */
  extensionStatuses(): ExtensionDescription[] {
    return this.records.map((r) => ({
      name: r.name,
      ...(r.extension.version === undefined ? {} : { version: r.extension.version }),
      status: r.status,
      ...(r.error ? { error: r.error.message, code: r.error.code } : {}),
    }));
  }

  private describeActive(active: readonly string[], unknown: readonly string[], tools: readonly string[], declared = this.declaredToolsets()): HostDescription {
    return describeFrom({ declared, active, tools, unknown, extensions: this.extensionStatuses(), unavailable: this.unavailableSource?.() ?? [] });
  }

  /**
   * What a selection offers: toolsets (with `active`), tools, unknown names, extension statuses. Builds (and so
   * wakes `onToolset` extensions) as a side effect.
   * @example
   * (await host.describe(parseSelection("nosuch"))).unknown // ["nosuch"]
   */
  async describe(selection: Selection): Promise<HostDescription> {
    const built = await this.build(selection);
    return this.describeActive(built.toolsets, built.unknown, built.toolNames);
  }
}
