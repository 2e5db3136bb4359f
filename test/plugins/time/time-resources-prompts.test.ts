// The time plugin's resources, template, prompt and onServer hook through a real host and client: the zone list,
// one zone's facts by template (with slashes kept and percent-encoding accepted), completion of zone names for the
// template and the prompt, the plan_meeting prompt's computed overlap, the default-zone note that onServer adds
// to exactly the builds that include the time toolset, and a bad defaultZone option failing only this extension.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTimeExtension, defaultZoneNote } from "../../../plugins/time/src/index.js";
import { zoneNames } from "../../../plugins/time/src/zones.js";
import { parseSelection } from "../../../src/host/selection.js";
import textExtension from "../../../plugins/text/src/index.js";
import { pluginHost, listedNames, rejection, resourceText, withClient } from "../../helpers/plugin-kit.js";

describe("time resources", () => {
  it("lists time://zones and the template time://zones/{+zone}", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const names = await listedNames(client);
      assert.deepEqual([names.resources, names.templates, names.prompts], [["time://zones"], ["time://zones/{+zone}"], ["plan_meeting"]]);
      const [resource] = (await client.listResources()).resources;
      assert.deepEqual([resource!.name, resource!.mimeType], ["time_zones", "application/json"]);
    });
  });

  it("time://zones lists every zone under its current IANA name, with its offset", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "modern", async (client) => {
      const body = JSON.parse(resourceText(await client.readResource({ uri: "time://zones" }))) as {
        count: number;
        zones: Array<{ zone: string; utc_offset: string }>;
      };
      assert.equal(body.count, body.zones.length);
      assert.deepEqual(
        body.zones.map((z) => z.zone),
        [...zoneNames()],
      );
      const byName = new Map(body.zones.map((z) => [z.zone, z.utc_offset]));
      assert.deepEqual(
        [byName.get("Asia/Kolkata"), byName.get("Asia/Kathmandu"), byName.get("UTC"), byName.has("Asia/Calcutta")],
        ["+05:30", "+05:45", "+00:00", false],
      );
    });
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`reads one zone's facts through the template (${era} era), slashes kept or percent-encoded`, async () => {
      const { host } = await pluginHost([createTimeExtension()]);
      await withClient(host, "only=time", era, async (client) => {
        const tokyo = JSON.parse(resourceText(await client.readResource({ uri: "time://zones/Asia/Tokyo" })));
        assert.deepEqual(
          { ...tokyo, now: undefined },
          {
            zone: "Asia/Tokyo",
            name: "Japan Standard Time",
            now: undefined,
            utc_offset: "+09:00",
            abbreviation: "GMT+9",
            is_dst: false,
            observes_dst: false,
            standard_offset: "+09:00",
            daylight_offset: null,
            next_change: null,
          },
        );
        assert.match(tokyo.now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+09:00$/);
        const paris = JSON.parse(resourceText(await client.readResource({ uri: "time://zones/Europe%2FParis" })));
        assert.deepEqual([paris.zone, paris.observes_dst, paris.standard_offset, paris.daylight_offset], ["Europe/Paris", true, "+01:00", "+02:00"]);
        assert.deepEqual(Object.keys(paris.next_change), ["at", "utc_offset_before", "utc_offset_after"]);
        const buenosAires = JSON.parse(resourceText(await client.readResource({ uri: "time://zones/America/Argentina/Buenos_Aires" })));
        assert.equal(buenosAires.zone, "America/Argentina/Buenos_Aires");
      });
    });
  }

  for (const era of ["legacy", "modern"] as const) {
    it(`answers an unknown zone with resource-not-found naming the zone and suggesting one (${era} era)`, async () => {
      const { host } = await pluginHost([createTimeExtension()]);
      await withClient(host, "only=time", era, async (client) => {
        const error = await rejection(client.readResource({ uri: "time://zones/Europe/Lodnon" }));
        // The SDK puts resource-not-found on the wire as -32602 with data.uri; the client rebuilds the error class.
        assert.deepEqual(error, {
          code: -32602,
          name: "ResourceNotFoundError",
          message:
            'unknown time zone "Europe/Lodnon"; did you mean "Europe/London"? Use an IANA name such as "America/New_York"; the resource time://zones lists every zone.',
        });
      });
    });
  }

  it("completes the template's zone variable by prefix, then by city", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const complete = async (value: string) =>
        (await client.complete({ ref: { type: "ref/resource", uri: "time://zones/{+zone}" }, argument: { name: "zone", value } })).completion.values;
      assert.deepEqual(await complete("america/new_"), ["America/New_York"]);
      assert.deepEqual(await complete("Kolk"), ["Asia/Kolkata"]);
      assert.deepEqual(await complete("Europe/Be"), ["Europe/Belgrade", "Europe/Berlin"]);
      assert.equal((await complete("")).length, 100);
    });
  });
});

describe("the plan_meeting prompt", () => {
  it("declares its arguments, zones required", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const [prompt] = (await client.listPrompts()).prompts;
      assert.deepEqual(
        prompt!.arguments!.map((a) => [a.name, a.required ?? false]),
        [
          ["zones", true],
          ["date", false],
          ["duration_minutes", false],
          ["working_hours", false],
        ],
      );
    });
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`works out the working-hours overlap for the given zones and date (${era} era)`, async () => {
      const { host } = await pluginHost([createTimeExtension()]);
      await withClient(host, "only=time", era, async (client) => {
        const result = await client.getPrompt({
          name: "plan_meeting",
          arguments: { zones: "Europe/Paris, America/New_York", date: "2025-03-12", duration_minutes: "30" },
        });
        assert.equal(result.messages.length, 1);
        assert.equal(result.messages[0]!.role, "user");
        assert.deepEqual(result.messages[0]!.content, {
          type: "text",
          text: [
            "Help me schedule a 30-minute meeting on Wednesday 2025-03-12 (date in Europe/Paris, the organiser's zone) for participants in: Europe/Paris, America/New_York.",
            "",
            "Times when everyone is inside working hours (09:00-17:00 local, Monday–Friday):",
            "- 13:00–16:00 UTC: Europe/Paris 14:00–17:00 (Wed 2025-03-12); America/New_York 09:00–12:00 (Wed 2025-03-12)",
            "",
            "Propose two or three concrete start times. Show each one in every participant's local time with the weekday, and point out anyone outside working hours or on a different date. Use the convert_time tool to check any time you propose.",
          ].join("\n"),
        });
      });
    });
  }

  it("says when no time suits everyone and lists the windows that suit the most", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const result = await client.getPrompt({ name: "plan_meeting", arguments: { zones: "Europe/Paris, America/New_York, Asia/Tokyo", date: "2025-03-12" } });
      const text = (result.messages[0]!.content as { text: string }).text;
      assert.match(text, /^Help me schedule a 60-minute meeting on Wednesday 2025-03-12/);
      assert.ok(
        text.includes(
          "No time suits everyone (09:00-17:00 local, Monday–Friday). Best windows, with 2 of 3 participants inside working hours:\n" +
            "- 13:00–16:00 UTC: Europe/Paris 14:00–17:00 (Wed 2025-03-12); America/New_York 09:00–12:00 (Wed 2025-03-12); Asia/Tokyo 22:00–01:00 (Wed 2025-03-12); outside working hours: Asia/Tokyo\n",
        ),
        text,
      );
    });
  });

  it("refuses an unknown zone as invalid params naming it", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const { code, message } = await rejection(client.getPrompt({ name: "plan_meeting", arguments: { zones: "Europe/Paris, Atlantis/Capital" } }));
      assert.equal(code, -32602);
      assert.match(message, /unknown time zone "Atlantis\/Capital"/);
    });
  });

  it("completes the last zone of the list, keeping the ones already written", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      const complete = async (name: string, value: string) =>
        (await client.complete({ ref: { type: "ref/prompt", name: "plan_meeting" }, argument: { name, value } })).completion.values;
      assert.deepEqual(await complete("zones", "Europe/Paris, America/Chi"), ["Europe/Paris, America/Chicago", "Europe/Paris, America/Chihuahua"]);
      assert.deepEqual(await complete("zones", "Europe/Paris,europe/pari"), []);
      assert.deepEqual(await complete("duration_minutes", "4"), ["45"]);
    });
  });
});

describe("onServer: the default-zone note", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`appends the configured default zone to the instructions of builds with the time toolset (${era} era)`, async () => {
      const { host } = await pluginHost([createTimeExtension(), textExtension], { extensionOptions: { time: { defaultZone: "america/sao_paulo" } } });
      await withClient(host, "only=time", era, async (client) => {
        const instructions = client.getInstructions() ?? "";
        assert.match(instructions, /^## Time and dates\n\nUse these tools instead of working out dates/);
        assert.ok(instructions.endsWith(`\n\n${defaultZoneNote("America/Sao_Paulo")}`), instructions);
        assert.equal(instructions.split("## Default time zone").length, 2);
        const fallback = await client.callTool({ name: "current_time", arguments: {} });
        assert.equal((fallback.structuredContent as { timezone: string }).timezone, "America/Sao_Paulo");
      });
      await withClient(host, "only=text", era, async (client) => {
        assert.doesNotMatch(client.getInstructions() ?? "", /Default time zone/);
      });
    });
  }

  it("puts the note after every toolset's instructions when several are active", async () => {
    const { host } = await pluginHost([createTimeExtension({ defaultZone: "UTC" }), textExtension]);
    await withClient(host, "only=time,text", "legacy", async (client) => {
      const instructions = client.getInstructions() ?? "";
      const sections = instructions
        .split(/^## /m)
        .filter(Boolean)
        .map((section) => section.split("\n")[0]);
      assert.deepEqual(sections, ["Text utilities", "Time and dates", "Default time zone"]);
      assert.ok(instructions.endsWith(defaultZoneNote("UTC")));
    });
  });

  it("a bad defaultZone option fails only the time extension, with the reason", async () => {
    const { host } = await pluginHost([createTimeExtension(), textExtension], { extensionOptions: { time: { defaultZone: "Moon/Base" } } });
    const description = await host.describe(parseSelection(""));
    const time = description.extensions.find((e) => e.name === "time");
    assert.equal(time?.status, "failed");
    assert.match(time?.error ?? "", /option "defaultZone": unknown time zone "Moon\/Base"/);
    assert.equal(description.extensions.find((e) => e.name === "text")?.status, "ready");
    await withClient(host, "time,text", "legacy", async (client) => {
      assert.deepEqual((await listedNames(client)).tools, ["change_case", "diff_lines", "list_server_toolsets", "regex_test", "slugify", "text_stats"]);
    });
  });
});
