/**
 * The two units tools. They read the tables through `UnitsState`, which the extension's `setup` fills: the tools
 * are declared up front (so the offer is readable without running anything) but work only once set up.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { convert, type Catalogue, type Unit } from "./catalogue.js";
import { CATEGORIES } from "./definitions.js";
import { pureAnnotations } from "./annotations.js";

/** What `setup` builds and the tools read; one per extension object. */
export interface UnitsState {
  catalogue?: Catalogue;
  /** Significant digits in results. */
  precision: number;
}

const CATEGORY_NAMES = CATEGORIES.map((category) => category.name) as [string, ...string[]];

function ready(state: UnitsState): Catalogue {
  if (state.catalogue === undefined) throw new Error("the units extension has not been set up (its conversion tables are not built)");
  return state.catalogue;
}

const unitSchema = z.object({ symbol: z.string(), name: z.string() });
const describeUnit = (unit: Unit) => ({ symbol: unit.symbol, name: unit.name });

export const convertUnitsOutput = z.object({
  category: z.enum(CATEGORY_NAMES),
  value: z.number(),
  from: unitSchema,
  to: unitSchema,
  result: z.number(),
  text: z.string().describe('e.g. "5 km = 3.10685596119 mi"'),
});

export function convertUnitsTool(state: UnitsState) {
  return defineTool({
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
    annotations: { ...pureAnnotations, title: "Convert units" },
    handler: ({ value, from, to }) => {
      const tables = ready(state);
      const source = tables.lookup(from);
      if (!source.ok) return errorResult(`from: ${source.message}`);
      const target = tables.lookup(to);
      if (!target.ok) return errorResult(`to: ${target.message}`);
      if (source.unit.category !== target.unit.category) {
        return errorResult(
          `cannot convert ${source.unit.category} (${source.unit.symbol}) to ${target.unit.category} (${target.unit.symbol}); both units must measure the same kind of quantity`,
        );
      }
      let result: number;
      try {
        result = Number(convert(value, source.unit, target.unit).toPrecision(state.precision));
      } catch (error) {
        if (error instanceof RangeError) return errorResult(error.message);
        throw error;
      }
      const text = `${value} ${source.unit.symbol} = ${result} ${target.unit.symbol}`;
      return jsonResult({ category: source.unit.category, value, from: describeUnit(source.unit), to: describeUnit(target.unit), result, text });
    },
  });
}

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

export function listUnitsTool(state: UnitsState) {
  return defineTool({
    name: "list_units",
    title: "List units",
    description: "Lists the units convert_units knows, by category, with the spellings each accepts.",
    inputSchema: listUnitsInput,
    outputSchema: listUnitsOutput,
    annotations: { ...pureAnnotations, title: "List units" },
    handler: (args) => {
      const wanted = args.category as string | undefined;
      const categories = ready(state)
        .categories.filter((category) => wanted === undefined || category.name === wanted)
        .map((category) => ({ ...category, units: category.units.map((unit) => ({ ...describeUnit(unit), spellings: unit.spellings })) }));
      return jsonResult({ categories });
    },
  });
}
