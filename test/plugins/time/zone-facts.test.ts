// The zone facts behind time://zones/{zone}, computed for fixed instants (the resource itself reads "now"): DST
// offsets in both hemispheres, a half-hour DST (Lord Howe), the next offset change found to the minute, and a zone
// without DST. Also how loose zone names resolve and what is suggested when they do not.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { zoneFacts } from "../../../plugins/time/src/zone-resources.js";
import { resolveZone, suggestZones } from "../../../plugins/time/src/zones.js";

const JAN_15_2025 = Date.UTC(2025, 0, 15);

describe("zone facts at a fixed instant", () => {
  it("Europe/Paris in winter: standard time, the spring change to the minute", () => {
    assert.deepEqual(zoneFacts("Europe/Paris", JAN_15_2025), {
      zone: "Europe/Paris",
      name: "Central European Standard Time",
      now: "2025-01-15T01:00:00+01:00",
      utc_offset: "+01:00",
      abbreviation: "CET",
      is_dst: false,
      observes_dst: true,
      standard_offset: "+01:00",
      daylight_offset: "+02:00",
      next_change: { at: "2025-03-30T03:00:00+02:00", utc_offset_before: "+01:00", utc_offset_after: "+02:00" },
    });
  });

  it("America/New_York in summer: daylight time, the autumn change", () => {
    const facts = zoneFacts("America/New_York", Date.UTC(2025, 5, 15));
    assert.deepEqual(
      [facts.abbreviation, facts.is_dst, facts.utc_offset, facts.next_change],
      ["EDT", true, "-04:00", { at: "2025-11-02T01:00:00-05:00", utc_offset_before: "-04:00", utc_offset_after: "-05:00" }],
    );
  });

  it("Australia/Lord_Howe: a half-hour daylight shift in the southern summer", () => {
    const facts = zoneFacts("Australia/Lord_Howe", JAN_15_2025);
    assert.deepEqual(
      [facts.utc_offset, facts.standard_offset, facts.daylight_offset, facts.is_dst, facts.next_change],
      ["+11:00", "+10:30", "+11:00", true, { at: "2025-04-06T01:30:00+10:30", utc_offset_before: "+11:00", utc_offset_after: "+10:30" }],
    );
  });

  it("America/Sao_Paulo: no daylight saving, no next change", () => {
    const facts = zoneFacts("America/Sao_Paulo", JAN_15_2025);
    assert.deepEqual([facts.now, facts.observes_dst, facts.daylight_offset, facts.next_change], ["2025-01-14T21:00:00-03:00", false, null, null]);
  });
});

describe("zone names", () => {
  const cases: Array<[string, string]> = [
    ["Europe/Paris", "Europe/Paris"],
    ["europe/paris", "Europe/Paris"],
    ["America/New York", "America/New_York"],
    ["US/Eastern", "America/New_York"],
    ["Asia/Calcutta", "Asia/Kolkata"],
    ["Asia/Saigon", "Asia/Ho_Chi_Minh"],
    ["Kiev", "Europe/Kyiv"],
    ["tokyo", "Asia/Tokyo"],
    ["Buenos Aires", "America/Argentina/Buenos_Aires"],
    ["UTC", "UTC"],
    ["Etc/GMT+5", "Etc/GMT+5"],
  ];
  for (const [written, zone] of cases) {
    it(`resolves ${JSON.stringify(written)} to ${zone}`, () => {
      assert.deepEqual(resolveZone(written), { ok: true, zone });
    });
  }

  it("suggests close names, including for retired spellings, and nothing for nonsense", () => {
    assert.deepEqual(
      [suggestZones("Europe/Pariss"), suggestZones("Calcuta"), suggestZones("Londn"), suggestZones("America/Sao Paolo"), suggestZones("xyzzy")],
      [["Europe/Paris"], ["Asia/Kolkata"], ["Europe/London"], ["America/Sao_Paulo"], []],
    );
  });

  it("refuses an empty name, saying what to give", () => {
    assert.equal(resolveZone("").ok, false);
    assert.deepEqual(resolveZone("  "), {
      ok: false,
      message: 'time zone is empty; give an IANA name such as "Europe/Paris" (the resource time://zones lists them all)',
    });
  });
});
