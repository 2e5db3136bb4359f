/**
 * McpHost: owns the registered extensions and the builds made from them (docs/design.md §7). Everything that changes
 * per request — which toolsets are on, which tool extensions apply, what a client ends up seeing — is decided
 * here, while the extensions stay the same. One extension failing never stops the others.
 */
import { systemClock, type Clock } from "../clock.js";
import { byName, compareNames } from "../compare.js";
import { isMcpHostError, McpHostError, messageOf } from "../errors.js";
import type { McpExtension } from "../extension/types.js";
import { validateExtension } from "../extension/validate.js";
import { createLogger, type Logger } from "../logger.js";
import { BuildCache } from "./build/build-cache.js";
import { compileBuild, type CompiledBuild } from "./build/compiled-build.js";
import { gatherContents } from "./build/gather.js";
import { composeInstructions } from "./build/instructions.js";
import { builtServerOf, compiledOf, type BuiltServer } from "./built-server.js";
import { describeFrom, type ExtensionDescription, type HostDescription, type SelectionModifiers, type UnavailableDescription } from "./describe.js";
import { ChangeFeed, type OfferChange } from "./extensions/change-feed.js";
import { toolsetsTouchedBy, type ExtensionRecord, type FailureRecord } from "./extensions/extension-record.js";
import { ExtensionSet } from "./extensions/extension-set.js";
import { declaredToolsetsFrom, type DeclaredToolset } from "./extensions/toolset-catalog.js";
import type { HostOptions } from "./host-options.js";
import type { HostObserver, ObservedBuild } from "./observer.js";
import { ToolIsolation } from "./isolation/tool-isolation.js";
import { DEFAULT_EVENT_LOOP_WARN_MS, monitorEventLoop, type EventLoopMonitor } from "./monitor/event-loop-monitor.js";
import { ToolActivity } from "./monitor/tool-activity.js";
import { requestStateSealer, type RequestStateSealer } from "./protocol/request-state.js";
import { ToolCallGate } from "./protocol/tool-limits.js";
import { Revision } from "./revision.js";
import type { Selection } from "./selection.js";
import { toolsetsBehind, type BuildId } from "./build/build-id.js";
import { narrowPlan, planSelection, type SelectionPlan } from "./build/selection-plan.js";
import { toolCatalogFrom, type ToolCatalog } from "./extensions/tool-catalog.js";
import { answerNotServed, OPEN_SERVING, type HostServing, type ServingLayer } from "./serving-port.js";
import { defined } from "../defined.js";
import { taskBoardFor } from "./task-board-of.js";
import type { TaskBoard } from "../tasks/task-board.js";

export type { OfferChange } from "./extensions/change-feed.js";

/** A tool as offered (tool extensions applied), without building a server. */
export interface OfferedTool {
  name: string;
  toolset: string;
  extension: string;
  title?: string;
  description?: string;
}

/** What a host is made from: extensions with their sources, and the records of those that failed to load. */
export interface HostContents {
  extensions: readonly { extension: McpExtension; source: string }[];
  failures?: readonly FailureRecord[];
}

/** How `build` and `describe` treat one caller (docs/design.md §9). */
export interface BuildOptions {
  /**
   * The declared toolsets this caller may reach: the active set is narrowed to them (a narrowed set is simply
   * another build), only they are woken, and `describe` lists only them. Default: every toolset.
   */
  permitted?: readonly string[];
  /**
   * With `permitted`: the toolsets the caller itself named (default: every name the selection writes). Those it may
   * not reach are reported as unknown, exactly like names nobody declared (a narrow token learns nothing of them).
   */
  named?: readonly string[];
  /** Set up dormant extensions the selection names (default true); false builds what is ready now. */
  wake?: boolean;
}

/** A callback `onOfferChange` / `onResourceUpdated` call with each change; they return the function that removes it. */
export type Listener<T> = (value: T) => void;
type Lifecycle = "new" | "started" | "stopped";

/**
 * The host. Make one with `buildHost` (which checks each extension's shape first).
 * @example
 * const host = buildHost([time, text], { name: "tools" });
 * await host.start();
 * const built = await host.build(parseSelection("only=time"));
 * await host.stop();
 */
export class McpHost {
  readonly options: Readonly<HostOptions>;
  readonly logger: Logger;
  /** Where every deadline and timer of the host reads the time (`HostOptions.clock`; the HTTP layer and extensions use it too). */
  readonly clock: Clock;
  private readonly extensions: ExtensionSet;
  private readonly builds: BuildCache<CompiledBuild>;
  private readonly changes: ChangeFeed;
  private readonly revisions: Revision;
  private readonly requestState: RequestStateSealer;
  private readonly resourceListeners = new Set<Listener<string>>();
  private readonly isolation: ToolIsolation;
  private readonly activity: ToolActivity | undefined;
  private readonly toolGate: ToolCallGate;
  /**
   * Long-running calls as MCP tasks (docs/tasks.md): shared by every build, since a task outlives its request. What
   * the HTTP layer reads for `/metrics`, the operator page and listen streams.
   * @internal
   */
  readonly tasks: TaskBoard;
  private monitor: EventLoopMonitor | undefined;
  private lifecycle: Lifecycle = "new";
  private catalog: { revision: number; toolsets: DeclaredToolset[] } | undefined;
  private tools: { revision: number; catalog: ToolCatalog } | undefined;
  /** Each selection's plan at the revision it was made for (a selection object is immutable; see `plan`). */
  private readonly plans = new WeakMap<Selection, { revision: number; plan: SelectionPlan }>();
  private layer: ServingLayer | undefined;

  constructor(contents: HostContents, options: HostOptions) {
    this.options = options;
    this.logger = options.logger ?? createLogger({ prefix: ["mcp-host"] });
    this.clock = options.clock ?? systemClock;
    this.builds = new BuildCache(options.maxBuilds ?? 256);
    this.changes = new ChangeFeed(options.listChangedDebounceMs ?? 50, this.clock);
    this.revisions = new Revision(this.builds, this.changes, () => this.defaultsSignature());
    this.requestState = requestStateSealer({
      clock: this.clock,
      ...defined({ key: options.requestStateKey, shared: options.requestStateClaims }),
    });
    this.isolation = new ToolIsolation(this.logger);
    this.activity = options.eventLoopWarnMs === false ? undefined : new ToolActivity();
    this.toolGate = new ToolCallGate(options.toolLimits ?? {}, this.clock);
    this.tasks = taskBoardFor(options, this.clock, this.logger);
    this.extensions = new ExtensionSet({
      logger: this.logger,
      clock: this.clock,
      setupTimeoutMs: options.setupTimeoutMs ?? 10_000,
      optionsFor: (name) => options.extensionOptions?.[name] ?? {},
      offerChanged: (record, touched) => {
        if (record.status === "ready") this.revisions.changed(touched, this.lifecycle === "started");
      },
      resourceUpdated: (uri) => {
        for (const listener of this.resourceListeners) listener(uri);
      },
    });
    for (const { extension, source } of contents.extensions) this.extensions.register(extension, source);
    for (const failure of contents.failures ?? []) this.extensions.addFailure(failure);
    this.revisions.changed(undefined, false);
  }

  /** The server name clients see. */
  get name(): string {
    return this.options.name;
  }

  get version(): string {
    return this.options.version ?? "0.0.0";
  }

  /** The build revision: bumped whenever what is on offer may have changed. */
  get revision(): number {
    return this.revisions.current;
  }

  /**
   * Sets up every eager extension (in parallel, each under the setup timeout). A failure quarantines only that one.
   * @example
   * await host.start(); host.describe(parseSelection(""));
   */
  async start(): Promise<void> {
    if (this.lifecycle !== "new")
      throw new McpHostError("ALREADY_STARTED", `host "${this.name}" is already ${this.lifecycle}; make a new host with buildHost() to start again`);
    this.lifecycle = "started";
    if (this.activity !== undefined) {
      this.monitor = monitorEventLoop({
        thresholdMs: this.options.eventLoopWarnMs || DEFAULT_EVENT_LOOP_WARN_MS,
        activity: this.activity,
        logger: this.logger,
      });
    }
    await this.extensions.loadAllSkills();
    await this.extensions.setUpPending();
    // Drop what was built while setups ran, without a change report: no client was served before start, and a
    // report for "everything" would swallow the next real change's toolsets into the same burst.
    this.revisions.changed(undefined, false);
  }

  /** Ends the tool workers and disposes every extension in reverse load order; throws one AggregateError when any dispose failed. */
  async stop(): Promise<void> {
    if (this.lifecycle === "stopped") return;
    this.lifecycle = "stopped";
    this.revisions.stop();
    this.monitor?.stop();
    await this.tasks.close();
    await this.isolation.close();
    await this.extensions.dispose();
  }

  /**
   * Registers an extension after start: it is set up at once (or left dormant), and every build is dropped. It is
   * checked exactly as `buildHost` and `replace` check one (its shape, its toolset names); one that fails is refused
   * with that `EXTENSION_INVALID` error, as a taken name is with `EXTENSION_NAME_TAKEN`, and nothing changes.
   * @example
   * await host.add(defineExtension({ name: "late", tools: [...] }));
   */
  async add(extension: McpExtension, source = "host.add()"): Promise<void> {
    const record = this.extensions.register(validateExtension(extension, source), source);
    if (this.lifecycle === "started") await this.extensions.loadSkills(record);
    if (this.lifecycle === "started" && record.status === "pending") await this.extensions.setUp(record);
    this.revisions.changed(undefined, this.lifecycle === "started");
  }

  /**
   * Puts a new version of an extension in place of the one with its name (or adds it): the old one is disposed, the
   * new one checked and set up, every build is dropped and listening clients are told. What `mcp-host dev` does when
   * an extension's files change. A new version that fails its shape check or setup is quarantined like any other.
   * @example
   * await host.replace(defineExtension({ name: "notes", tools: [...] }), 'package "notes" (./dist/index.js)');
   */
  async replace(extension: unknown, source = "host.replace()"): Promise<void> {
    this.ensureRunning();
    let valid: McpExtension;
    try {
      valid = validateExtension(extension, source);
    } catch (error) {
      const name = (extension as { name?: unknown } | null)?.name;
      if (typeof name === "string") await this.extensions.remove(name);
      const coded = isMcpHostError(error) ? error : new McpHostError("EXTENSION_INVALID", `${source}: ${messageOf(error)}`, { cause: error });
      this.extensions.addFailure({ name: typeof name === "string" && name ? name : source, source, error: coded, toolsets: [] });
      this.logger.error(coded.message, { code: coded.code, ...(typeof name === "string" ? { extension: name } : {}) });
      this.revisions.changed(undefined, true);
      return;
    }
    await this.extensions.remove(valid.name);
    const record = this.extensions.register(valid, source);
    await this.extensions.loadSkills(record);
    if (record.status === "pending") await this.extensions.setUp(record);
    this.revisions.changed(undefined, true);
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
    this.revisions.changed(undefined, this.lifecycle === "started");
  }

  /** Every declared toolset, sorted by name (dormant and quarantined extensions' included). */
  declaredToolsets(): DeclaredToolset[] {
    // Read on every request (to resolve its selection), so it is computed once per revision: every change to
    // what extensions declare or contribute bumps the revision.
    const revision = this.revisions.current;
    if (this.catalog?.revision !== revision) this.catalog = { revision, toolsets: declaredToolsetsFrom(this.extensions.records, this.extensions.failures) };
    return this.catalog.toolsets;
  }

  /**
   * The active toolsets and the unknown names (toolsets, and `tools=<name>` for tools) of a selection, without building
   * anything. With `permitted`, one caller's: a `tools=` name that reaches only toolsets it may not reach is unknown.
   */
  activeFor(selection: Selection, options: Pick<BuildOptions, "permitted" | "named"> = {}): { active: string[]; unknown: string[] } {
    const plan = this.planFor(selection, options);
    return { active: [...plan.id.toolsets], unknown: [...plan.unknown] };
  }

  /**
   * What a selection asks for — its build's identity, its unknown names, what it may wake — resolved without building.
   * Remembered per selection object for the current revision: the HTTP edge hands the same selection object to every
   * request with the same query and headers, so a served URL is planned once per change of what is on offer.
   */
  private plan(selection: Selection): SelectionPlan {
    const revision = this.revisions.current;
    const known = this.plans.get(selection);
    if (known !== undefined && known.revision === revision) return known.plan;
    const plan = planSelection(selection, { declared: this.declaredToolsets(), tools: this.toolCatalog() });
    this.plans.set(selection, { revision, plan });
    return plan;
  }

  /** The plan as one caller may have it (BuildOptions: `permitted`, `named`). */
  private planFor(selection: Selection, options: Pick<BuildOptions, "permitted" | "named">): SelectionPlan {
    const plan = this.plan(selection);
    if (options.permitted === undefined) return plan;
    const reachable = new Set(options.permitted);
    const declared = new Set(this.declaredToolsets().map((t) => t.name));
    const named = options.named ?? [...selection.named, ...(selection.only ?? [])];
    const hidden = [...new Set(named)].filter((name) => declared.has(name) && !reachable.has(name));
    return narrowPlan(plan, reachable, hidden);
  }

  /** Who offers which tool name (for `tools=`), computed once per revision like the toolset catalog. */
  private toolCatalog(): ToolCatalog {
    const revision = this.revisions.current;
    if (this.tools?.revision !== revision) this.tools = { revision, catalog: toolCatalogFrom(this.extensions.records) };
    return this.tools.catalog;
  }

  /** The composed instructions for an active set. */
  instructionsFor(active: readonly string[]): string | undefined {
    return composeInstructions(this.options.instructions, this.declaredToolsets(), active);
  }

  /** The tools on offer (tool extensions applied) for the given toolsets (default: all declared), by name. */
  offeredTools(toolsets?: readonly string[]): OfferedTool[] {
    const active = new Set(toolsets ?? this.declaredToolsets().map((t) => t.name));
    const silent = this.logger.child("offered-tools");
    return gatherContents(this.extensions.records, active, { ...silent, warn: () => {}, debug: () => {} })
      .tools.map((t) => ({
        name: t.name,
        toolset: t.toolset,
        extension: t.extension,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
      }))
      .sort((a, b) => byName(a, b) || compareNames(a.toolset, b.toolset));
  }

  /**
   * The BuiltServer for a selection: from the cache when the same active set was built before. With
   * `permitted`, the build holds only those toolsets, so nothing else is callable through it.
   * @example
   * const built = await host.build(parseSelection("only=spaces")); built.toolNames;
   * const narrowed = await host.build(parseSelection("only=spaces,admin"), { permitted: ["spaces"] }); narrowed.toolsets // ["spaces"]
   */
  async build(selection: Selection, options: BuildOptions = {}): Promise<BuiltServer> {
    this.ensureRunning();
    const planned = () => this.planFor(selection, options);
    let plan = planned();
    if (options.wake !== false && (await this.wakePlanned(plan))) plan = planned();
    return builtServerOf(await this.compiled(plan.id), plan.unknown);
  }

  /**
   * Sets up the dormant extensions a plan names (docs/design.md §4 rule 11); true when that changed what is on offer,
   * so the plan is made again (a woken extension's dynamic offer may add the tools a `tools=` name asks for).
   */
  private async wakePlanned(plan: SelectionPlan): Promise<boolean> {
    if (plan.wake.length === 0) return false;
    const before = this.revisions.current;
    await this.wake(plan.wake);
    return this.revisions.current !== before;
  }

  /**
   * What extensions report as unavailable right now (the gateway's upstream servers that are down). With
   * `permitted`, one caller's view: what extensions of toolsets it may reach report, less what is named after a
   * toolset it may not reach (the gateway names each server's toolset after the server).
   */
  unavailable(permitted?: readonly string[]): UnavailableDescription[] {
    if (permitted === undefined) return this.reported(this.extensions.unavailable());
    const reachable = new Set(permitted);
    const declared = new Set(this.declaredToolsets().map((t) => t.name));
    const involved = this.involvedIn(reachable);
    return this.reported(this.extensions.unavailable((name) => involved.has(name)).filter((u) => !declared.has(u.server) || reachable.has(u.server)));
  }

  /**
   * The statuses of every extension (failure records included), for `/toolsets` and `/healthz`. With `permitted`, one
   * caller's view: only the extensions that declare or contribute to a toolset it may reach — another extension's
   * error is no business of a caller that cannot use it.
   */
  extensionStatuses(permitted?: readonly string[]): ExtensionDescription[] {
    const all = this.reported(this.extensions.statuses());
    if (permitted === undefined) return all;
    const involved = this.involvedIn(new Set(permitted));
    return all.filter((e) => involved.has(e.name));
  }

  /** Why each skill an extension ships was left out when it was read (`SKILL_INVALID`; `mcp-host check` lists them). */
  skillProblems(): Array<{ extension?: string; code: string; message: string }> {
    return this.reported(this.extensions.skillProblems().map((p) => ({ ...defined({ extension: p.extension }), code: p.code, message: p.message })));
  }

  /** The extensions that declare or contribute to any of `toolsets`. */
  private involvedIn(toolsets: ReadonlySet<string>): Set<string> {
    return new Set(this.declaredToolsets().flatMap((t) => (toolsets.has(t.name) ? t.extensions : [])));
  }

  /** A report as it may leave the host: the deployment's secrets out of every message (HostOptions.redactor). */
  private reported<T>(report: T): T {
    return this.options.redactor === undefined ? report : this.options.redactor.redactValue(report);
  }

  /**
   * What a selection offers: toolsets (with `active`), tools, unknown names, extension statuses. Builds (and so
   * wakes `onToolset` extensions) as a side effect. With `permitted`, it is one caller's view: only the toolsets
   * it may reach are listed.
   * @example
   * (await host.describe(parseSelection("nosuch"))).unknown // ["nosuch"]
   */
  async describe(selection: Selection, options: BuildOptions = {}): Promise<HostDescription> {
    const built = await this.build(selection, options);
    return this.describeActive(built.toolsets, built.unknown, built.toolNames, options.permitted, compiledOf(built).modifiers);
  }

  /**
   * Attaches the serving layer (see serving-port.ts): every build from now on gets its handler from it, so what was
   * built before is dropped. Refuses a second one while the first is attached. The symbol is not exported: only
   * mcp-host's own HTTP layer and stdio bridge attach.
   * @internal
   */
  [OPEN_SERVING](layer: ServingLayer): HostServing {
    if (this.layer) {
      throw new McpHostError(
        "HOST_ALREADY_SERVED",
        `host "${this.name}" is already being served over HTTP; close the first app (hostApp.close()) before serving it again, or build a second host`,
      );
    }
    this.layer = layer;
    this.revisions.changed(undefined, false);
    return {
      plan: (selection) => this.plan(selection),
      wake: (plan) => this.wakePlanned(plan),
      compiled: (id) => this.compiled(id),
      close: () => {
        if (this.layer !== layer) return;
        this.layer = undefined;
        this.revisions.changed(undefined, false);
      },
    };
  }

  /** Sets up the dormant extensions that declare any of `names` (docs/design.md §4 rule 11). */
  private async wake(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    // On every request: look the names up in the cached catalog (which knows each toolset's extensions) rather
    // than walking every dormant extension's contributions.
    const wanted = new Set(names);
    const owners = new Set(this.declaredToolsets().flatMap((t) => (wanted.has(t.name) ? t.extensions : [])));
    await this.extensions.wake(owners, (record: ExtensionRecord) => {
      this.logger.info(`woke extension "${record.name}" (status ${record.status})`, { extension: record.name });
      this.revisions.changed(record.status === "ready" ? toolsetsTouchedBy(record) : undefined, this.lifecycle === "started");
    });
  }

  private ensureRunning(): void {
    if (this.lifecycle !== "started") {
      throw new McpHostError("HOST_NOT_STARTED", `host "${this.name}" is ${this.lifecycle === "stopped" ? "stopped" : "not started"}; call start() first`);
    }
  }

  /** The cached build of an identity; compiled once per key even under concurrency. */
  private compiled(id: BuildId): Promise<CompiledBuild> {
    this.ensureRunning();
    const observer = this.options.observer;
    if (observer?.build !== undefined) return this.observedCompile(observer, id);
    return this.builds.getOrBuild(id.key, toolsetsBehind(id), () => this.compileNow(id));
  }

  /** A cache lookup the observer hears of: a hit, or a miss and how long compiling took. */
  private observedCompile(observer: HostObserver, id: BuildId): Promise<CompiledBuild> {
    const { key } = id;
    const hit = this.builds.has(key);
    const note = (event: ObservedBuild) => {
      try {
        observer.build?.(event);
      } catch {
        // An observer's failure never fails a build.
      }
    };
    if (hit) note({ key, hit: true });
    return this.builds.getOrBuild(key, toolsetsBehind(id), async () => {
      const started = performance.now();
      const compiled = await this.compileNow(id);
      note({ key, hit: false, durationMs: performance.now() - started });
      return compiled;
    });
  }

  private compileNow(id: BuildId): Promise<CompiledBuild> {
    return compileBuild({
      records: this.extensions.records,
      id,
      ...defined({ searchAbove: this.options.searchAbove }),
      toolsetText: (name) => this.toolsetText(name),
      revision: this.revisions.current,
      name: this.name,
      version: this.version,
      instructions: (served) => this.instructionsFor(served),
      logger: this.logger,
      toolTimeoutMs: this.options.toolTimeoutMs ?? 60_000,
      clock: this.clock,
      toolsetsTool: this.options.toolsetsTool ?? true,
      requestState: this.requestState,
      serverFactory: this.options.serverFactory,
      handlerFor: (build) => this.layer?.handlerFor(build) ?? answerNotServed,
      describe: (a, unknown, tools, permitted, modifiers) => this.describeActive(a, unknown, tools, permitted, modifiers),
      isolate: (extension, spec) => this.isolation.handlerFor(extension, spec),
      ...defined({ activity: this.activity, observer: this.options.observer }),
      toolGate: this.toolGate,
      tasks: this.tasks,
    });
  }

  private describeActive(
    active: readonly string[],
    unknown: readonly string[],
    tools: readonly string[],
    permitted?: readonly string[],
    modifiers?: SelectionModifiers,
  ): HostDescription {
    const reachable = permitted === undefined ? undefined : new Set(permitted);
    const declared = reachable ? this.declaredToolsets().filter((t) => reachable.has(t.name)) : this.declaredToolsets();
    return describeFrom({
      declared,
      active,
      tools,
      unknown,
      extensions: this.extensionStatuses(permitted),
      unavailable: this.unavailable(permitted),
      ...defined({ modifiers }),
    });
  }

  /** What the tool search reads of a toolset besides its name: its title and description. */
  private toolsetText(name: string): string {
    const toolset = this.declaredToolsets().find((t) => t.name === name);
    return [toolset?.title, toolset?.description].filter((part) => part !== undefined).join(" ");
  }

  /** Which toolsets are default or always-on: when this changes, every URL may resolve differently. */
  private defaultsSignature(): string {
    return this.declaredToolsets()
      .filter((t) => t.default || t.always)
      .map((t) => `${t.name}:${t.always ? "always" : "default"}`)
      .join("|");
  }
}
