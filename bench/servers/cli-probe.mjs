// Preloaded (node --import) into the mcp-host CLI processes of scenarios 1–3, which the suite starts with an IPC
// channel: it answers the suite's `memory` question (process.memoryUsage() after a full GC; --expose-gc), as
// bench/servers/serve.ts does for the forked peers, and ends the CLI gracefully (SIGTERM, as `serve` expects) when
// the suite goes away, so a killed run leaves no server behind. It touches nothing on the request path.
if (typeof process.send === "function") {
  process.on("message", (message) => {
    if (message?.type !== "memory") return;
    const gc = globalThis.gc;
    if (typeof gc !== "function") throw new Error("the mcp-host process needs --expose-gc to report memory");
    gc();
    gc(); // a second pass collects what the first one's finalizers released
    const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
    process.send({ type: "memory", seq: message.seq, heapUsed, rss, external, arrayBuffers });
  });
  // `serve` ends gracefully on its (first) SIGTERM; before it listens, or once it has begun closing, exit plainly.
  process.once("disconnect", () => {
    if (process.listenerCount("SIGTERM") > 0) process.kill(process.pid, "SIGTERM");
    else process.exit(0);
  });
}
