// A readable log line is read on a terminal (issue 17 class 9): what clients and upstreams say reaches log lines —
// an unknown toolset's name, an upstream's stderr, an error message — and a terminal obeys control characters. A
// line that clears the screen, retitles the window, moves the cursor, overwrites itself with a carriage return or
// forges a second line with a newline must print as inert text. The family is every kind of control a terminal
// acts on, in the message, the component and the fields; the JSON format escapes them by JSON's own rules.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { createPinoLogger } from "../../src/observe/pino-logger.js";
import { prettyLine } from "../../src/observe/pretty-line.js";
import { buildHost } from "../../src/host/build-host.js";
import { listenHost } from "../../src/http/listen.js";
import { Cleanup, modernBody, modernHeaders, raw } from "../helpers/http-host.js";

const ESC = "\u001b";
const CONTROLS: Array<[string, string]> = [
  ["clear screen", `${ESC}[2J${ESC}[H`],
  ["window title (OSC, BEL)", `${ESC}]0;pwned\u0007`],
  ["window title (OSC, ST)", `${ESC}]2;pwned${ESC}\\`],
  ["cursor up and erase line", `${ESC}[1A${ESC}[2K`],
  ["8-bit CSI", "\u009b2J"],
  ["8-bit OSC", "\u009d0;pwned\u009c"],
  ["carriage return overwrite", "ok\rFAKE OK"],
  ["forged line", "x\n12:00:00.000 info  [http] forged"],
  ["line separator", "x\u2028forged"],
  ["backspace", "secret\b\b\b\b\b\b"],
  ["NUL and DEL", "a\u0000b\u007fc"],
  ["right-to-left override", "abc\u202Edcba"],
  ["isolate", "\u2066x\u2069"],
];

/** True when `text` holds nothing a terminal acts on (the colour codes the line itself adds are removed first). */
function inert(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the line's own colour codes are control sequences
  const withoutOwnColours = text.replace(/\u001b\[(?:0|3[0-9]|90)m/g, "");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(withoutOwnColours.replace(/\n$/, ""));
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("readable log lines print what others say as inert text", () => {
  it("escapes every terminal control in the message, the component and the fields", () => {
    const wrong: string[] = [];
    for (const [what, control] of CONTROLS) {
      for (const colour of [false, true]) {
        const line = prettyLine({ level: "warn", time: "2026-01-01T12:00:01.234Z", component: `ext${control}`, msg: `said ${control}`, said: control }, colour);
        if (!inert(line)) wrong.push(`${what} (colour ${colour}): ${JSON.stringify(line)}`);
        if (line.includes("\n")) wrong.push(`${what}: a second line`);
      }
    }
    assert.deepEqual(wrong, []);
    // The readable form still says what was sent.
    assert.equal(
      prettyLine({ level: "info", time: "2026-01-01T12:00:01.234Z", component: "http", msg: `a${ESC}[2Jb\nc` }, false),
      "12:00:01.234 info  [http] a\\x1b[2Jb\\nc",
    );
  });

  it("keeps a client's unknown toolset name inert on the way from a URL to a terminal", async () => {
    const written: string[] = [];
    const logger = createPinoLogger({ format: "pretty", level: "debug", stream: { isTTY: true, write: (line: string) => written.push(line) } });
    const echo: McpExtension = {
      name: "a",
      toolsets: [{ name: "a" }],
      tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "ok" }] }) }],
    };
    const host = buildHost([echo], { name: "escapes", logger, eventLoopWarnMs: false });
    await host.start();
    const served = await listenHost(host, { port: 0, host: "127.0.0.1" });
    cleanup.add(() => served.close());
    for (const [, control] of CONTROLS) {
      const url = new URL(`${served.url.href}?${encodeURIComponent(`x${control}`)}`);
      assert.equal((await raw({ url, method: "POST", headers: modernHeaders("tools/list"), body: modernBody("tools/list") })).status, 200);
    }
    const told = written.filter((line) => line.includes("unknown toolset"));
    assert.ok(told.length >= CONTROLS.length - 2, `the unknown names were logged (${told.length} lines)`);
    assert.deepEqual(
      written.filter((line) => !inert(line)),
      [],
    );
  });
});
