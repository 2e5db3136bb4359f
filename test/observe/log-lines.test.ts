// The log format (docs/design.md §18): pino writes JSON lines with time, level and component, plus what the line is
// about (an extension's lines say `component: "extension"` and its name; a request's lines its id); `pretty` is a
// readable line with the same facts; `auto` picks pretty for a terminal and JSON otherwise. A line's own data
// cannot shadow the frame. Secret-looking argument keys are masked at every depth, and big arguments cut.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { withLogFields } from "../../src/observe/log-context.js";
import { isSecretKey, MASK, maskSecrets } from "../../src/observe/mask-secrets.js";
import { createPinoLogger } from "../../src/observe/pino-logger.js";
import { prettyLine } from "../../src/observe/pretty-line.js";
import { lineSink } from "../helpers/observed-host.js";

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("log lines", () => {
  it("writes JSON lines with time, level, component, the request's fields and the data", () => {
    const sink = lineSink();
    const logger = createPinoLogger({ format: "json", stream: sink.stream });
    logger.info("host up");
    withLogFields({ requestId: "r-1" }, () => logger.child("http").child("auth").warn("refused", { status: 401 }));
    withLogFields({ requestId: "r-2", tool: "now", toolset: "time", extension: "time" }, () =>
      logger.child("time", { extension: "time" }).info("asked the clock", { level: "shadowed?", msg: "no" }),
    );
    logger.debug("below the level");
    for (const line of sink.lines) assert.match(String(line.time), TIME);
    assert.deepEqual(
      sink.lines.map(({ time: _time, ...rest }) => rest),
      [
        { level: "info", component: "mcp-host", msg: "host up" },
        { level: "warn", requestId: "r-1", component: "http/auth", status: 401, msg: "refused" },
        {
          level: "info",
          requestId: "r-2",
          tool: "now",
          toolset: "time",
          extension: "time",
          component: "extension",
          "data.level": "shadowed?",
          "data.msg": "no",
          msg: "asked the clock",
        },
      ],
    );
  });

  it("writes readable lines with pretty, and picks by the stream with auto", () => {
    const written: string[] = [];
    const terminal = { isTTY: true, write: (line: string) => written.push(line) };
    createPinoLogger({ format: "auto", stream: terminal }).child("echo", { extension: "echo" }).info("ready", { tools: 2 });
    const ESC = String.fromCharCode(27);
    assert.match(written[0]!, /^\d\d:\d\d:\d\d\.\d{3} /);
    assert.equal(written[0]!.slice(13), `${ESC}[36minfo ${ESC}[0m [echo] ready {"extension":"echo","tools":2}\n`);
    const piped: string[] = [];
    createPinoLogger({ format: "auto", stream: { write: (line: string) => piped.push(line) } }).info("plain");
    assert.match(piped[0]!, /^\{"level":"info","time":"[^"]+","component":"mcp-host","msg":"plain"\}\n$/);
    assert.equal(
      prettyLine({ level: "warn", time: "2026-01-01T12:00:01.234Z", component: "http", msg: "GET /x 404", status: 404 }, false),
      '12:00:01.234 warn  [http] GET /x 404 {"status":404}',
    );
  });

  it("masks values under secret-looking keys at every depth, and cuts what is too big to log", () => {
    assert.deepEqual(
      ["token", "password", "apiKey", "api_key", "X-Auth-Token", "clientSecret", "authorization", "private_key", "key"].filter((k) => !isSecretKey(k)),
      [],
    );
    assert.deepEqual(
      ["monkey", "keyboard", "maxTokens", "tokenizer", "author", "query", "path"].filter((k) => isSecretKey(k)),
      [],
    );
    assert.deepEqual(maskSecrets({ q: "x", list: [{ password: "p", n: 1 }], deep: { a: { secret: "s" } } }), {
      q: "x",
      list: [{ password: MASK, n: 1 }],
      deep: { a: { secret: MASK } },
    });
    const big = maskSecrets({ text: "y".repeat(2000), items: Array.from({ length: 60 }, (_, i) => i) });
    assert.equal(big.text, `${"y".repeat(500)}… (2000 characters)`);
    assert.equal((big.items as unknown[]).length, 51);
    assert.equal((big.items as unknown[])[50], "… (60 items)");
  });
});
