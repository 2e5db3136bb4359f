/**
 * The live extension state of one host: the registered extensions in load order (sorted by name), the failure
 * records of those that never became extensions, and the lifecycle that moves a record between statuses —
 * set up at start, woken on first use, quarantined on failure. One extension failing never stops the others.
 */
import { byName } from "../../compare.js";
import { McpHostError, messageOf } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { AuthStrategy, McpExtension } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import type { ExtensionDescription, UnavailableDescription } from "../describe.js";
import { extensionContext } from "./extension-context.js";
import { disposeAll, disposeRecord, runSetup } from "./extension-lifecycle.js";
import { emptyDynamic, type ExtensionRecord, type FailureRecord } from "./extension-record.js";
import { defined } from "../../defined.js";

/** What the set needs from its host. */
export interface ExtensionSetHooks {
  logger: Logger;
  /** The host's clock: setup timeouts run on it, and extensions read it as `ctx.clock`. */
  clock: Clock;
  setupTimeoutMs: number;
  optionsFor(name: string): Readonly<Record<string, unknown>>;
  /** An extension changed its offer after start; `touched` are the toolsets whose contents changed. */
  offerChanged(record: ExtensionRecord, touched: Set<string>): void;
  resourceUpdated(uri: string): void;
}

export class ExtensionSet {
  private readonly list: ExtensionRecord[] = [];
  private readonly failed: FailureRecord[] = [];

  constructor(private readonly hooks: ExtensionSetHooks) {}

  /** The registered extensions, in load order. */
  get records(): readonly ExtensionRecord[] {
    return this.list;
  }

  /** Extensions that failed to load or validate, by name. */
  get failures(): readonly FailureRecord[] {
    return this.failed;
  }

  /** Registers an extension; a taken name is refused with both sources named. */
  register(extension: McpExtension, source: string): ExtensionRecord {
    const taken = this.list.find((r) => r.name === extension.name);
    if (taken) {
      throw new McpHostError("EXTENSION_NAME_TAKEN", `extension name "${extension.name}" is taken: ${source} and ${taken.source} both use it; rename one`, {
        extension: extension.name,
      });
    }
    const record: ExtensionRecord = {
      extension,
      name: extension.name,
      source,
      status: extension.activation === "onToolset" ? "dormant" : "pending",
      dynamic: emptyDynamic(),
      skills: [],
      skillProblems: [],
      unavailable: [],
      lifetime: new AbortController(),
    };
    this.list.push(record);
    this.list.sort(byName);
    return record;
  }

  /**
   * Takes an extension (or the failure record of one) out: it is disposed first when it was set up. Returns false
   * when nothing had that name.
   */
  async remove(name: string): Promise<boolean> {
    const failedAt = this.failed.findIndex((f) => f.name === name);
    if (failedAt >= 0) this.failed.splice(failedAt, 1);
    const at = this.list.findIndex((r) => r.name === name);
    if (at < 0) return failedAt >= 0;
    const [record] = this.list.splice(at, 1);
    const failure = await disposeRecord(record!);
    if (failure) this.hooks.logger.warn(failure.message, { code: failure.code, extension: name });
    return true;
  }

  /** Records an extension that never became one, under a name no other status line uses. */
  addFailure(failure: FailureRecord): void {
    const taken = new Set([...this.list, ...this.failed].map((r) => r.name));
    let name = failure.name;
    for (let n = 2; taken.has(name); n += 1) name = `${failure.name} (${n})`;
    this.failed.push({ ...failure, name });
    this.failed.sort(byName);
  }

  /**
   * Reads the skills the extension's package ships (docs/skills.md), once: each bad one is left out and logged
   * (`SKILL_INVALID`, naming the extension and the file); the extension and its other skills serve.
   */
  async loadSkills(record: ExtensionRecord): Promise<void> {
    if (record.extension.skills === undefined || record.extension.skills.length === 0) return;
    // Imported when an extension ships skills: a host without any loads none of the reading code.
    const { loadExtensionSkills } = await import("../../skills/extension-skills.js");
    const { skills, problems } = await loadExtensionSkills(record.extension);
    record.skills = skills;
    record.skillProblems = problems;
    for (const problem of problems) this.hooks.logger.error(problem.message, { code: problem.code, extension: record.name });
  }

  /** Reads every registered extension's skills (at start). */
  async loadAllSkills(): Promise<void> {
    await Promise.all(this.list.map((record) => this.loadSkills(record)));
  }

  /** Sets up one extension; a failure quarantines it (logged once, with its code). */
  async setUp(record: ExtensionRecord): Promise<void> {
    const logger = this.hooks.logger.child(record.name, { extension: record.name });
    const ctx = extensionContext(record, this.hooks.optionsFor(record.name), logger, {
      clock: this.hooks.clock,
      offerChanged: (touched) => this.hooks.offerChanged(record, touched),
      resourceUpdated: (uri) => this.hooks.resourceUpdated(uri),
      authStrategies: () => this.authStrategies(),
    });
    try {
      await runSetup(record, ctx, record.extension.setupTimeoutMs ?? this.hooks.setupTimeoutMs);
      if (record.status === "pending" || record.status === "dormant") record.status = "ready";
    } catch (error) {
      record.status = "failed";
      record.error =
        error instanceof McpHostError
          ? error
          : new McpHostError("EXTENSION_SETUP_FAILED", `[extension ${record.name}] ${messageOf(error)}`, { extension: record.name, cause: error });
      this.hooks.logger.error(record.error.message, { code: record.error.code, extension: record.name });
    }
  }

  /** Sets up every eager extension, in parallel. */
  async setUpPending(): Promise<void> {
    await Promise.all(this.list.filter((r) => r.status === "pending").map((r) => this.setUp(r)));
  }

  /**
   * Sets up the dormant extensions named in `owners` (concurrent callers share one wake-up); `woken` runs once per
   * extension after its setup finished, whatever the outcome.
   */
  async wake(owners: ReadonlySet<string>, woken: (record: ExtensionRecord) => void): Promise<void> {
    const sleepers = this.list.filter((r) => r.status === "dormant" && owners.has(r.name));
    await Promise.all(
      sleepers.map((r) => {
        r.waking ??= this.setUp(r).then(() => woken(r));
        return r.waking;
      }),
    );
  }

  /** The upstream auth strategies of the extensions not quarantined, by kind; the first in load order wins a kind. */
  authStrategies(): Readonly<Record<string, AuthStrategy>> {
    const out: Record<string, AuthStrategy> = {};
    for (const record of this.list) {
      if (record.status === "failed") continue;
      for (const [kind, strategy] of Object.entries(record.extension.authStrategies ?? {})) if (!(kind in out)) out[kind] = strategy;
    }
    return out;
  }

  /** Every extension's status (failure records included), sorted by name. */
  statuses(): ExtensionDescription[] {
    const registered = this.list.map((r) => ({
      name: r.name,
      ...defined({ version: r.extension.version }),
      status: r.status,
      ...(r.error ? { error: r.error.message, code: r.error.code } : {}),
    }));
    const failed = this.failed.map((f) => ({ name: f.name, status: "failed" as const, source: f.source, error: f.error.message, code: f.error.code }));
    return [...registered, ...failed].sort(byName);
  }

  /** Why skills were left out when they were read (`SKILL_INVALID`), every extension's, in load order. */
  skillProblems(): McpHostError[] {
    return this.list.flatMap((r) => r.skillProblems);
  }

  /** What the ready extensions report as unavailable (the gateway's upstream servers that are down); `from` picks reporters. */
  unavailable(from: (extension: string) => boolean = () => true): UnavailableDescription[] {
    return this.list.filter((r) => r.status === "ready" && from(r.name)).flatMap((r) => r.unavailable);
  }

  /** Disposes every extension in reverse load order. */
  dispose(): Promise<void> {
    return disposeAll(this.list);
  }
}
