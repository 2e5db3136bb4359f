/**
 * @mcp-host/plugin-units: unit conversion, activated on demand (`activation: "onToolset"`). Its toolset is
 * declared up front, so `/toolsets` shows it, but it is off by default and its `setup` — which builds and checks
 * the conversion tables — runs only once a selection names `units` (`/mcp?units`, `/mcp?only=units`).
 */
import type { McpExtension } from "mcp-host";
import { z } from "zod";
import { buildCatalogue, convert, type Catalogue, type Unit } from "./catalogue.js";
import { CATEGORIES } from "./definitions.js";
import { failure, structured } from "./results.js";
import { pureAnnotations as annotations, tool } from "./tool.js";

export interface UnitsOptions {
  /** Significant digits in results (1–17, default 12): enough for any measurement, few enough to hide float noise. */
  precision?: number;
}

const CATEGORY_NAMES = CATEGORIES.map((category) => category.name);

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

const unitSchema = z.object({ symbol: z.string(), name: z.string() });

export const convertUnitsOutput = z.object({
  category: z.enum(CATEGORY_NAMES as [string, ...string[]]),
  value: z.number(),
  from: unitSchema,
  to: unitSchema,
  result: z.number(),
  text: z.string().describe('e.g. "5 km = 3.10685596119 mi"'),
});

export const listUnitsInput = {
  type: "object",
  properties: { category: { type: "string", enum: CATEGORY_NAMES, description: "only this category; default: all" } },
  additionalProperties: false,
} as const;

export const listUnitsOutput = {
  type: "object",
  properties: {
    categories: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          title: { type: "string" },
          base: { type: "string", description: "symbol of the unit the others are defined against" },
          units: {
            type: "array",
            items: {
              type: "object",
              properties: { symbol: { type: "string" }, name: { type: "string" }, spellings: { type: "array", items: { type: "string" } } },
              required: ["symbol", "name", "spellings"],
            },
          },
        },
        required: ["name", "title", "base", "units"],
      },
    },
  },
  required: ["categories"],
} as const;

const describeUnit = (unit: Unit) => ({ symbol: unit.symbol, name: unit.name });

/**
 * Makes the units extension; each call has its own tables, built by its own `setup`.
 * @example
 * const host = buildHost([createUnitsExtension({ precision: 6 })], { name: "units" });
 */
export function createUnitsExtension(options: UnitsOptions = {}): McpExtension {
  let catalogue: Catalogue | undefined;
  let precision = readPrecision(options as Record<string, unknown>);
  const ready = (): Catalogue => {
    if (catalogue === undefined) throw new Error("the units extension has not been set up (its conversion tables are not built)");
    return catalogue;
  };
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
    tools: [
      tool({
        name: "convert_units",
        title: "Convert units",
        description:
          'Converts a value from one unit to another of the same kind: "5 km" to "mi", "72 °F" to "°C", "1.5 GiB" to "MB", "3 cups" to "mL". ' +
          "Units may be symbols or names; case matters only where it changes the meaning (MB megabyte, Mb megabit).",
        inputSchema: z.object({
          value: z.number().describe("the quantity to convert"),
          from: z.string().min(1).describe('unit of the value, e.g. "km", "lb", "°F", "GiB"'),
          to: z.string().min(1).describe('unit to convert to, e.g. "mi", "kg", "°C", "MB"'),
        }),
        outputSchema: convertUnitsOutput,
        annotations: { ...annotations, title: "Convert units" },
        handler: ({ value, from, to }) => {
          const tables = ready();
          const source = tables.lookup(from);
          if (!source.ok) return failure(`from: ${source.message}`);
          const target = tables.lookup(to);
          if (!target.ok) return failure(`to: ${target.message}`);
          if (source.unit.category !== target.unit.category) {
            return failure(`cannot convert ${source.unit.category} (${source.unit.symbol}) to ${target.unit.category} (${target.unit.symbol}); both units must measure the same kind of quantity`);
          }
          let result: number;
          try {
            result = Number(convert(value, source.unit, target.unit).toPrecision(precision));
          } catch (error) {
            if (error instanceof RangeError) return failure(error.message);
            throw error;
          }
          return structured({
            category: source.unit.category,
            value,
            from: describeUnit(source.unit),
            to: describeUnit(target.unit),
            result,
            text: `${value} ${source.unit.symbol} = ${result} ${target.unit.symbol}`,
          });
        },
      }),
      tool({
        name: "list_units",
        title: "List units",
        description: "Lists the units convert_units knows, by category, with the spellings each accepts.",
        inputSchema: listUnitsInput,
        outputSchema: listUnitsOutput,
        annotations: { ...annotations, title: "List units" },
        handler: (args) => {
          const wanted = args.category as string | undefined;
          const categories = ready()
            .categories.filter((category) => wanted === undefined || category.name === wanted)
            .map((category) => ({ ...category, units: category.units.map((unit) => ({ ...describeUnit(unit), spellings: unit.spellings })) }));
          return structured({ categories });
        },
      }),
    ],
    setup: (ctx) => {
      if (ctx.options.precision !== undefined) precision = readPrecision(ctx.options);
      catalogue = buildCatalogue(CATEGORIES);
      const units = catalogue.categories.reduce((sum, category) => sum + category.units.length, 0);
      ctx.logger.info("conversion tables built", { categories: catalogue.categories.length, units, spellings: catalogue.spellingCount, precision });
    },
    dispose: () => {
      catalogue = undefined;
    },
  };
}

export default createUnitsExtension;
