/**
 * The SDK's `ServerEventBus` of one selection in a fleet (docs/scale-out.md): the seam `createMcpHandler` gives
 * multi-process deployments. Its listeners are this instance's open `subscriptions/listen` streams of the selection;
 * while it has any, it follows the selection's toolsets on the fleet's channels (fleet-events.ts), so a list change
 * another instance raises reaches them. What is published on it is delivered here, at once and synchronously as the
 * SDK's in-memory bus does: changes raised here are sent to the fleet once, by the endpoints, not once per selection.
 */
import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";

/**
 * @example
 * const bus = new FleetEventBus(() => events.followOffers(["notes"]));
 * createMcpHandler(factory, { bus });
 */
export class FleetEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  private release: (() => void) | undefined;

  /** `follow` starts following this selection's channels and returns what stops it. */
  constructor(
    private readonly follow: () => () => void,
    private readonly onerror?: (error: Error) => void,
  ) {}

  publish(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.release = this.follow();
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.release?.();
      this.release = undefined;
    };
  }

  /** How many listen streams listen now. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
