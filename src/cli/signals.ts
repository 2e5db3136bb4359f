/**
 * Graceful shutdown for the long-running commands: the first SIGTERM or SIGINT stops the server (in-flight requests
 * finish, sessions end, extensions are disposed) and the process exits 0.
 */

/**
 * @example
 * onShutdownSignals(() => served.close());
 */
export function onShutdownSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`mcp-host: ${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`mcp-host: shutdown finished with errors: ${(error as Error).message}\n`);
        process.exit(0);
      },
    );
  };
  process.once("SIGTERM", handle);
  process.once("SIGINT", handle);
}
