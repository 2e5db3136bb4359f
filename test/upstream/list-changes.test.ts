// docs/design.md §11 / §4 rule 10: an upstream's list change (pushed by a 2025 upstream, or on a 2026-07-28 upstream's
// listen stream) updates the gateway's offer and reaches each downstream client of the selections that include it
// as one notification — SDK v2 in both eras and v1 — and its next tools/list shows the change. Clients of another
// upstream's toolset are not told.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/http-host.js";
import { legacyServer, listener, modernServer, serveGateway, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("upstream list changes reach downstream clients", { timeout: 60_000 }, () => {
  for (const era of ["2025", "2026-07-28"] as const) {
    it(`tells the clients of the upstream's toolset once when a ${era} upstream adds a tool`, async () => {
      const upstream = era === "2025" ? legacyServer("up", { tools: ["echo", "add_tool"] }) : modernServer("up");
      const served = await serveGateway(cleanup, { servers: { up: upstream, other: legacyServer("other", { tools: ["count"] }) } });
      const told = [
        await listener(cleanup, served.at("only=up"), "modern"),
        await listener(cleanup, served.at("only=up"), "legacy"),
        await listener(cleanup, served.at("up,other"), "v1"),
      ];
      const untold = [await listener(cleanup, served.at("only=other"), "modern"), await listener(cleanup, served.at("only=other"), "legacy")];
      await served.legacyStreams(3);
      const before = (await told[0]!.client.listTools()).tools.map((t) => t.name).sort();
      assert.ok(!before.includes("fresh"));

      assert.equal(textOf(await told[0]!.client.callTool({ name: "add_tool", arguments: { name: "fresh" } })), "added fresh");

      const relisted = await Promise.all(told.map((l) => l.firstTold));
      for (const [i, l] of told.entries()) {
        assert.ok(relisted[i]!.includes("fresh"), `${l.label} re-listed and saw the new tool: ${relisted[i]}`);
        assert.deepEqual((await l.client.listTools()).tools.map((t) => t.name).sort(), relisted[i], l.label);
        const result = await l.client.callTool({ name: "fresh", arguments: { text: "new" } });
        assert.equal(textOf(result), era === "2025" ? "new" : "fresh ran", l.label);
        assert.equal(l.told(), 1, `${l.label} was told once`);
      }
      for (const l of untold) {
        assert.deepEqual((await l.client.listTools()).tools.map((t) => t.name).sort(), ["count", "list_server_toolsets"], l.label);
        assert.equal(l.told(), 0, `${l.label} is on a toolset the change does not touch`);
      }
    });
  }
});
