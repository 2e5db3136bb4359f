/**
 * @mcp-host/plugin-units: unit conversion, activated on demand (`activation: "onToolset"`). Its toolset is
 * declared up front, so `/toolsets` shows it, but it is off by default and its `setup` — which builds and checks
 * the conversion tables — runs only once a selection names `units` (`/mcp?units`, `/mcp?only=units`).
 */
import type { McpExtension } from "mcp-host";
import { buildCatalogue } from "./catalogue.js";
import { CATEGORIES } from "./definitions.js";
import { convertUnitsTool, listUnitsTool, type UnitsState } from "./tools.js";

export interface UnitsOptions {
  /** Significant digits in results (1–17, default 12): enough for any measurement, few enough to hide float noise. */
  precision?: number;
}

const INSTRUCTIONS = [
  "Use convert_units for any unit conversion instead of recalling factors: lengths, areas, volumes (US and imperial), masses, temperatures, speeds and data sizes.",
  'Data sizes: kB, MB, GB are powers of 1000; KiB, MiB, GiB are powers of 1024; "Mb"/"Mbit" are megabits. Temperatures are absolute readings.',
  "list_units shows every unit and the spellings it accepts.",
].join("\n");

function readPrecision(options: Readonly<Record<string, unknown>>): number {
  const precision = options.precision ?? 12;
  if (typeof precision !== "number" || !Number.isInteger(precision) || precision < 1 || precision > 17) {
    throw new Error(`option "precision" must be a whole number from 1 to 17, got ${JSON.stringify(precision)}`);
  }
  return precision;
}

/**
 * Makes the units extension; each call has its own tables, built by its own `setup`. Options given here (by
 * discovery, from the config) are read at once; the host's `extensionOptions.units` are read again at setup.
 * @example
 * const host = buildHost([createUnitsExtension({ precision: 6 })], { name: "units" });
 */
export function createUnitsExtension(options: UnitsOptions = {}): McpExtension {
  const state: UnitsState = { precision: readPrecision(options as Record<string, unknown>) };
  return {
    name: "units",
    version: "0.1.0",
    description: "Unit conversion for length, area, volume, mass, temperature, speed and data sizes.",
    activation: "onToolset",
    toolsets: [
      {
        name: "units",
        title: "Unit conversion",
        description: "Convert between units of length, area, volume, mass, temperature, speed and data size (SI and IEC). Off unless a URL names it.",
        instructions: INSTRUCTIONS,
        default: false,
      },
    ],
    tools: [convertUnitsTool(state), listUnitsTool(state)],
    setup: (ctx) => {
      if (ctx.options.precision !== undefined) state.precision = readPrecision(ctx.options);
      const catalogue = buildCatalogue(CATEGORIES);
      state.catalogue = catalogue;
      const units = catalogue.categories.reduce((sum, category) => sum + category.units.length, 0);
      ctx.logger.info("conversion tables built", {
        categories: catalogue.categories.length,
        units,
        spellings: catalogue.spellingCount,
        precision: state.precision,
      });
    },
    dispose: () => {
      state.catalogue = undefined;
    },
  };
}

export default createUnitsExtension;
