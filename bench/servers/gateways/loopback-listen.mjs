// Preloaded (`node --import`) into the third-party gateways scenario 5 measures. supergateway has no option for its
// listen address and binds every interface; this binds whatever the process listens on to 127.0.0.1 (mcp-proxy is
// given `--host 127.0.0.1` as well), and reports the port it got on stderr, so each can be started on port 0.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === "object" && first !== null && !Array.isArray(first)) {
    args[0] = { ...first, host: "127.0.0.1" };
  } else if (typeof first === "number" || typeof first === "string") {
    const port = Number(first);
    const callback = args.find((a) => typeof a === "function");
    args = callback ? [port, "127.0.0.1", callback] : [port, "127.0.0.1"];
  }
  this.once("listening", () => {
    const address = this.address();
    if (address && typeof address === "object") process.stderr.write(`\nMCP_BENCH_LISTENING ${address.address} ${address.port}\n`);
  });
  return listen.apply(this, args);
};
