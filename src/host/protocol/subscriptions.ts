/**
 * What a client may ask to be told about (docs/design.md §16): resource subscriptions are state the host keeps for a
 * client — a legacy session's `resources/subscribe`, a modern `subscriptions/listen` stream's `resourceSubscriptions`
 * — and every event is matched against them, so they are bounded per session or stream in count and in URI length,
 * and only a URI the selection serves (a listed resource, or one a template of it matches) may be followed: a
 * subscription to anything else could never fire and would only cost memory.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { BuildTables } from "../build/build-tables.js";

export interface SubscriptionLimits {
  /** Resource URIs one legacy session, or one listen stream, may follow at once. */
  maxSubscriptions: number;
  /** The longest URI that may be followed, in characters. */
  maxUriLength: number;
}

/** The defaults (config `http.maxSubscriptionsPerSession`, `http.maxSubscriptionUriLength`). */
export const SUBSCRIPTION_DEFAULTS: SubscriptionLimits = { maxSubscriptions: 256, maxUriLength: 2_048 };

/** True when the build serves `uri`: a resource it lists, or a URI one of its templates matches. */
export function servesUri(tables: Pick<BuildTables, "resourceByUri" | "templateList">, uri: string): boolean {
  if (tables.resourceByUri.has(uri)) return true;
  for (const template of tables.templateList) if (template.matcher.match(uri) !== null) return true;
  return false;
}

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/**
 * Checks URIs a client asks to follow, on top of `already` followed ones; throws a -32602 ProtocolError naming the
 * first problem (too many, too long, not served, not a string).
 * @example
 * checkSubscriptions(["note://a"], tables, SUBSCRIPTION_DEFAULTS);
 */
export function checkSubscriptions(
  uris: readonly unknown[],
  tables: Pick<BuildTables, "resourceByUri" | "templateList">,
  limits: SubscriptionLimits,
  already = 0,
): void {
  if (already + uris.length > limits.maxSubscriptions) {
    throw invalid(
      `Too many resource subscriptions: at most ${limits.maxSubscriptions} URIs may be followed at once here (http.maxSubscriptionsPerSession); unsubscribe from some first.`,
    );
  }
  for (const uri of uris) {
    if (typeof uri !== "string") throw invalid("A resource subscription must name a URI (a string).");
    if (uri.length > limits.maxUriLength) {
      throw invalid(`Resource URI too long to subscribe to: at most ${limits.maxUriLength} characters (http.maxSubscriptionUriLength).`);
    }
    if (!servesUri(tables, uri)) throw invalid(`Cannot subscribe to a resource this selection does not serve: ${uri}`);
  }
}

/**
 * The URIs one legacy session follows, bounded. In a fleet (docs/scale-out.md) `follow` is told of each URI while it
 * is followed, so the instance hears the other instances' updates of it; `clear()` stops following all at once.
 * @example
 * const subscriptions = new SessionSubscriptions(SUBSCRIPTION_DEFAULTS); subscriptions.add("note://a", tables);
 */
export class SessionSubscriptions {
  private readonly uris = new Map<string, (() => void) | undefined>();

  constructor(
    readonly limits: SubscriptionLimits = SUBSCRIPTION_DEFAULTS,
    private readonly follow?: (uri: string) => () => void,
  ) {}

  get size(): number {
    return this.uris.size;
  }

  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  /** Follows `uri` once checked against the limits and what the session's build serves (a repeat is a no-op). */
  add(uri: string, tables: Pick<BuildTables, "resourceByUri" | "templateList">): void {
    if (this.uris.has(uri)) return;
    checkSubscriptions([uri], tables, this.limits, this.uris.size);
    this.uris.set(uri, this.follow?.(uri));
  }

  delete(uri: string): void {
    this.uris.get(uri)?.();
    this.uris.delete(uri);
  }

  /** Stops following every URI (the session ended). */
  clear(): void {
    for (const release of this.uris.values()) release?.();
    this.uris.clear();
  }
}
