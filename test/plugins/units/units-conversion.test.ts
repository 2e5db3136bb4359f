// convert_units and list_units through a real host and client: exact results for fixed values across every
// category (affine temperatures, SI vs IEC data sizes, US vs imperial volumes), the spellings accepted (symbols,
// names, plurals, superscripts, µ), and the isError answers: ambiguous case, unknown unit, different kinds, below
// absolute zero.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createUnitsExtension } from "../../../plugins/units/src/index.js";
import { callError } from "../../helpers/kit.js";
import { callStructured, pluginHost, withClient } from "../../helpers/plugin-kit.js";

async function units<T>(era: "legacy" | "modern", body: Parameters<typeof withClient<T>>[3]): Promise<T> {
  const { host } = await pluginHost([createUnitsExtension()]);
  return withClient(host, "only=units", era, body);
}

for (const era of ["legacy", "modern"] as const) {
  describe(`convert_units (${era} era)`, () => {
    it("converts exactly across every category and spelling", async () => {
      await units(era, async (client) => {
        const cases: Array<[number, string, string, string]> = [
          [1, "mi", "km", "1 mi = 1.609344 km"],
          [12, "inches", "cm", "12 in = 30.48 cm"],
          [1, "kilometres", "feet", "1 km = 3280.83989501 ft"],
          [1, "µm", "nm", "1 µm = 1000 nm"],
          [1, "μm", "nm", "1 µm = 1000 nm"],
          [1, "acre", "m²", "1 ac = 4046.8564224 m²"],
          [100, "sq ft", "m2", "100 ft² = 9.290304 m²"],
          [1, "gal", "L", "1 gal = 3.785411784 L"],
          [1, "imp gal", "L", "1 imp gal = 4.54609 L"],
          [3, "cups", "mL", "3 cup = 709.7647095 mL"],
          [1, "ft³", "L", "1 ft³ = 28.316846592 L"],
          [10, "lbs", "kg", "10 lb = 4.5359237 kg"],
          [1, "st", "lb", "1 st = 14 lb"],
          [72, "°F", "°C", "72 °F = 22.2222222222 °C"],
          [100, "Celsius", "fahrenheit", "100 °C = 212 °F"],
          [0, "K", "°C", "0 K = -273.15 °C"],
          [100, "km/h", "mph", "100 km/h = 62.1371192237 mph"],
          [10, "kn", "km/h", "10 kn = 18.52 km/h"],
          [1.5, "GiB", "MB", "1.5 GiB = 1610.612736 MB"],
          [1, "MB", "Mb", "1 MB = 8 Mbit"],
          [100, "Mbit", "MB", "100 Mbit = 12.5 MB"],
          [1, "KB", "KiB", "1 kB = 0.9765625 KiB"],
        ];
        for (const [value, from, to, text] of cases) {
          assert.equal((await callStructured(client, "convert_units", { value, from, to })).text, text);
        }
      });
    });

    it("answers bad units and impossible conversions with what to do instead", async () => {
      await units(era, async (client) => {
        const errors: Array<[Record<string, unknown>, string]> = [
          [{ value: 1, from: "mb", to: "B" }, 'from: unit "mb" is ambiguous: "Mbit" (megabit) or "MB" (megabyte); write the symbol with its exact case'],
          [{ value: 1, from: "m", to: "furlong" }, 'to: unknown unit "furlong". The list_units tool shows every unit and its spellings.'],
          [
            { value: 1, from: "kilometre", to: "kilogramm" },
            'to: unknown unit "kilogramm"; did you mean "kg" (kilogram)? The list_units tool shows every unit and its spellings.',
          ],
          [{ value: 1, from: "km", to: "kg" }, "cannot convert length (km) to mass (kg); both units must measure the same kind of quantity"],
          [{ value: -300, from: "°C", to: "K" }, "-300 °C is below absolute zero (0 K)"],
        ];
        for (const [args, message] of errors) assert.equal(await callError(client, "convert_units", args), message);
        assert.match(await callError(client, "convert_units", { value: "five", from: "km", to: "mi" }), /Invalid arguments for tool "convert_units"/);
      });
    });

    it("list_units lists a category with the spellings it accepts", async () => {
      await units(era, async (client) => {
        assert.deepEqual(await callStructured(client, "list_units", { category: "temperature" }), {
          categories: [
            {
              name: "temperature",
              title: "Temperature (absolute readings, not differences)",
              base: "K",
              units: [
                { symbol: "K", name: "kelvin", spellings: ["K", "kelvin"] },
                { symbol: "°C", name: "degree Celsius", spellings: ["°C", "C", "celsius", "centigrade", "degC", "degree celsius", "degrees celsius"] },
                { symbol: "°F", name: "degree Fahrenheit", spellings: ["°F", "F", "fahrenheit", "degF", "degree fahrenheit", "degrees fahrenheit"] },
                { symbol: "°R", name: "degree Rankine", spellings: ["°R", "R", "rankine", "degR", "degree rankine", "degrees rankine"] },
              ],
            },
          ],
        });
        const all = await callStructured(client, "list_units", {});
        assert.deepEqual(
          (all.categories as Array<{ name: string }>).map((c) => c.name),
          ["length", "area", "volume", "mass", "temperature", "speed", "data"],
        );
        assert.match(await callError(client, "list_units", { category: "time" }), /Invalid arguments for tool "list_units"/);
      });
    });
  });
}
