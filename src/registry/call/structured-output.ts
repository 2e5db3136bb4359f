/**
 * Checking a tool's `structuredContent` against its declared `outputSchema`. Validators are compiled lazily, once per
 * listing: each listing gets its own Ajv instance (ListingChecks keys them by listing), so a re-listed server's old
 * schemas are dropped with it instead of piling up in a shared cache. External `$ref`s are never fetched; a schema
 * that does not compile is not enforced (with a warning) rather than making the tool unusable. Patterns and formats
 * run in linear time (../schema-engine.ts): a pattern that needs backtracking (a lookaround, a backreference) is the
 * one part left unenforced, with a warning naming it, and the rest of the schema is still checked.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { messageOf } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { type AjvLike, type Dialect, dialectOf, linearAjv, type UnenforcedPattern } from "../schema-engine.js";

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ keyword: string; instancePath: string; message?: string }> | null };

/** Most bytes of a bad payload kept in the error result. */
export const MAX_PAYLOAD_BYTES = 2048;

/** Why structured content was rejected. */
export interface OutputViolation {
  keyword: string;
  message: string;
  /** The raw payload as JSON, cut to 2 KiB. */
  payload: string;
}

/**
 * Cut to at most `max` bytes of UTF-8, marking the cut.
 * @example
 * clip("x".repeat(5000)).length // ≈ 2048
 */
export function clip(text: string, max: number = MAX_PAYLOAD_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  return `${bytes
    .subarray(0, max - 20)
    .toString("utf8")
    .replace(/\uFFFD+$/, "")}… [cut at 2 KiB]`;
}

/**
 * Validators for one server listing.
 * @example
 * const checks = new OutputChecks(logger); const v = checks.check(tool, result); if (v) …v.keyword
 */
export class OutputChecks {
  private readonly ajv = new Map<Dialect, AjvLike>();
  private readonly compiled = new Map<Tool, Validate | null>();
  /** The patterns left unenforced by the compile in progress. */
  private unenforced: UnenforcedPattern[] = [];

  constructor(private readonly logger: Logger) {}

  private instance(kind: Dialect): AjvLike {
    let ajv = this.ajv.get(kind);
    if (!ajv) {
      ajv = linearAjv(kind, { onUnenforced: (pattern) => this.unenforced.push(pattern) });
      this.ajv.set(kind, ajv);
    }
    return ajv;
  }

  private validatorFor(tool: Tool): Validate | null {
    if (this.compiled.has(tool)) return this.compiled.get(tool) ?? null;
    let validate: Validate | null = null;
    const schema = tool.outputSchema as Record<string, unknown> | undefined;
    if (schema && typeof schema === "object") {
      this.unenforced = [];
      try {
        validate = this.instance(dialectOf(schema)).compile(schema) as Validate;
      } catch (error) {
        this.logger.warn(`tool "${tool.name}" declares an outputSchema that does not compile; its structured content is not checked`, {
          error: messageOf(error),
        });
      }
      for (const { pattern, reason } of this.unenforced) {
        this.logger.warn(
          `tool "${tool.name}" declares an outputSchema pattern that cannot be checked in linear time (${reason}); that pattern is not enforced`,
          { pattern: pattern.slice(0, 200) },
        );
      }
    }
    this.compiled.set(tool, validate);
    return validate;
  }

  /** The violation in a successful result of `tool`, if any. Error results and tools without a schema pass. */
  check(tool: Tool, result: CallToolResult): OutputViolation | undefined {
    if (result.isError || !tool.outputSchema) return undefined;
    const validate = this.validatorFor(tool);
    if (!validate) return undefined;
    if (result.structuredContent === undefined) {
      return { keyword: "structuredContent", message: "the result has no structuredContent although the tool declares an outputSchema", payload: "" };
    }
    if (validate(result.structuredContent)) return undefined;
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${first.instancePath} ` : "";
    return {
      keyword: first?.keyword ?? "schema",
      message: `${where}${first?.message ?? "does not match"}`,
      payload: clip(JSON.stringify(result.structuredContent) ?? ""),
    };
  }
}

/**
 * One OutputChecks per server listing, dropped with it: a new listing starts with no compiled validators.
 * @example
 * const checks = new ListingChecks(); checks.of(upstream.listing, upstream.logger).check(tool, result)
 */
export class ListingChecks {
  private readonly byListing = new WeakMap<object, OutputChecks>();

  /** The checks of `listing` (a fresh, uncached set when there is none, as while a server is being brought up). */
  of(listing: object | undefined, logger: Logger): OutputChecks {
    if (!listing) return new OutputChecks(logger);
    let checks = this.byListing.get(listing);
    if (!checks) {
      checks = new OutputChecks(logger);
      this.byListing.set(listing, checks);
    }
    return checks;
  }
}
