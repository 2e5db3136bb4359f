/**
 * The last line of defence against orphans: if the host process exits without closing a registry, every stdio
 * server it started is SIGKILLed (synchronously, as "exit" handlers must be). One process listener serves every
 * registry, so creating many registries does not pile up listeners.
 */

const guards = new Set<() => void>();
let installed = false;

function onExit(): void {
  for (const kill of guards) {
    try {
      kill();
    } catch {
      // exiting anyway
    }
  }
}

/**
 * Registers `kill` to run if the process exits; returns the unregistration (call it from close()).
 * @example
 * const release = guardOnExit(() => connection.killNow()); … release();
 */
export function guardOnExit(kill: () => void): () => void {
  if (!installed) {
    process.on("exit", onExit);
    installed = true;
  }
  guards.add(kill);
  return () => void guards.delete(kill);
}
