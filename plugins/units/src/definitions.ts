/**
 * The units, as data: each category has a base unit and every unit's factor to it (value × factor + offset =
 * base). Factors are the exact legal definitions (1 in = 0.0254 m, 1 lb = 0.45359237 kg, US gallon = 231 in³).
 * `setup` turns this into lookup tables and checks that no name is claimed twice.
 */

export interface UnitDefinition {
  symbol: string;
  name: string;
  plural?: string;
  /** Other spellings; matched case-sensitively first, then case-insensitively when that is unambiguous. */
  aliases?: readonly string[];
  factor: number;
  offset?: number;
}

export interface CategoryDefinition {
  name: string;
  title: string;
  /** Symbol of the base unit (factor 1). */
  base: string;
  units: readonly UnitDefinition[];
}

const INCH = 0.0254;
const FOOT = 0.3048;
const MILE = 1609.344;
const US_GALLON = 231 * INCH ** 3;
const IMPERIAL_GALLON = 0.00454609;

export const CATEGORIES: readonly CategoryDefinition[] = [
  {
    name: "length",
    title: "Length",
    base: "m",
    units: [
      { symbol: "nm", name: "nanometre", aliases: ["nanometer", "nanometers"], factor: 1e-9 },
      { symbol: "µm", name: "micrometre", aliases: ["um", "micron", "microns", "micrometer", "micrometers"], factor: 1e-6 },
      { symbol: "mm", name: "millimetre", aliases: ["millimeter", "millimeters"], factor: 1e-3 },
      { symbol: "cm", name: "centimetre", aliases: ["centimeter", "centimeters"], factor: 1e-2 },
      { symbol: "m", name: "metre", aliases: ["meter", "meters"], factor: 1 },
      { symbol: "km", name: "kilometre", aliases: ["kilometer", "kilometers"], factor: 1e3 },
      { symbol: "in", name: "inch", plural: "inches", aliases: ['"'], factor: INCH },
      { symbol: "ft", name: "foot", plural: "feet", aliases: ["'"], factor: FOOT },
      { symbol: "yd", name: "yard", factor: 0.9144 },
      { symbol: "mi", name: "mile", factor: MILE },
      { symbol: "nmi", name: "nautical mile", aliases: ["NM"], factor: 1852 },
    ],
  },
  {
    name: "area",
    title: "Area",
    base: "m²",
    units: [
      { symbol: "mm²", name: "square millimetre", aliases: ["sq mm", "square millimeter", "square millimeters"], factor: 1e-6 },
      { symbol: "cm²", name: "square centimetre", aliases: ["sq cm", "square centimeter", "square centimeters"], factor: 1e-4 },
      { symbol: "m²", name: "square metre", aliases: ["sq m", "sqm", "square meter", "square meters"], factor: 1 },
      { symbol: "ha", name: "hectare", factor: 1e4 },
      { symbol: "km²", name: "square kilometre", aliases: ["sq km", "square kilometer", "square kilometers"], factor: 1e6 },
      { symbol: "in²", name: "square inch", plural: "square inches", aliases: ["sq in"], factor: INCH ** 2 },
      { symbol: "ft²", name: "square foot", plural: "square feet", aliases: ["sq ft", "sqft"], factor: FOOT ** 2 },
      { symbol: "yd²", name: "square yard", aliases: ["sq yd"], factor: 0.9144 ** 2 },
      { symbol: "ac", name: "acre", factor: 4046.8564224 },
      { symbol: "mi²", name: "square mile", aliases: ["sq mi"], factor: MILE ** 2 },
    ],
  },
  {
    name: "volume",
    title: "Volume",
    base: "L",
    units: [
      { symbol: "mL", name: "millilitre", aliases: ["ml", "milliliter", "milliliters", "cm3", "cc"], factor: 1e-3 },
      { symbol: "cL", name: "centilitre", aliases: ["cl", "centiliter", "centiliters"], factor: 1e-2 },
      { symbol: "dL", name: "decilitre", aliases: ["dl", "deciliter", "deciliters"], factor: 1e-1 },
      { symbol: "L", name: "litre", aliases: ["l", "liter", "liters", "dm3"], factor: 1 },
      { symbol: "m³", name: "cubic metre", aliases: ["cubic meter", "cubic meters"], factor: 1e3 },
      { symbol: "tsp", name: "teaspoon", aliases: ["US teaspoon"], factor: (US_GALLON * 1000) / 768 },
      { symbol: "tbsp", name: "tablespoon", aliases: ["US tablespoon"], factor: (US_GALLON * 1000) / 256 },
      { symbol: "fl oz", name: "US fluid ounce", aliases: ["floz", "fluid ounce", "fluid ounces", "US fl oz"], factor: (US_GALLON * 1000) / 128 },
      { symbol: "cup", name: "US cup", aliases: ["cups"], factor: (US_GALLON * 1000) / 16 },
      { symbol: "pt", name: "US pint", aliases: ["pint", "pints"], factor: (US_GALLON * 1000) / 8 },
      { symbol: "qt", name: "US quart", aliases: ["quart", "quarts"], factor: (US_GALLON * 1000) / 4 },
      { symbol: "gal", name: "US gallon", aliases: ["gallon", "gallons"], factor: US_GALLON * 1000 },
      { symbol: "imp fl oz", name: "imperial fluid ounce", aliases: ["UK fl oz"], factor: (IMPERIAL_GALLON * 1000) / 160 },
      { symbol: "imp pt", name: "imperial pint", aliases: ["UK pint", "UK pints"], factor: (IMPERIAL_GALLON * 1000) / 8 },
      { symbol: "imp gal", name: "imperial gallon", aliases: ["UK gallon", "UK gallons"], factor: IMPERIAL_GALLON * 1000 },
      { symbol: "in³", name: "cubic inch", plural: "cubic inches", aliases: ["cu in"], factor: INCH ** 3 * 1000 },
      { symbol: "ft³", name: "cubic foot", plural: "cubic feet", aliases: ["cu ft"], factor: FOOT ** 3 * 1000 },
    ],
  },
  {
    name: "mass",
    title: "Mass",
    base: "kg",
    units: [
      { symbol: "µg", name: "microgram", aliases: ["ug", "mcg"], factor: 1e-9 },
      { symbol: "mg", name: "milligram", factor: 1e-6 },
      { symbol: "g", name: "gram", factor: 1e-3 },
      { symbol: "kg", name: "kilogram", aliases: ["kilo", "kilos"], factor: 1 },
      { symbol: "t", name: "tonne", aliases: ["metric ton", "metric tons"], factor: 1e3 },
      { symbol: "ct", name: "carat", factor: 2e-4 },
      { symbol: "oz", name: "ounce", factor: 0.45359237 / 16 },
      { symbol: "lb", name: "pound", aliases: ["lbs"], factor: 0.45359237 },
      { symbol: "st", name: "stone", plural: "stone", factor: 0.45359237 * 14 },
      { symbol: "short ton", name: "short ton", aliases: ["US ton", "US tons"], factor: 0.45359237 * 2000 },
      { symbol: "long ton", name: "long ton", aliases: ["UK ton", "UK tons", "imperial ton"], factor: 0.45359237 * 2240 },
    ],
  },
  {
    name: "temperature",
    title: "Temperature (absolute readings, not differences)",
    base: "K",
    units: [
      { symbol: "K", name: "kelvin", plural: "kelvin", factor: 1 },
      { symbol: "°C", name: "degree Celsius", plural: "degrees Celsius", aliases: ["C", "celsius", "centigrade", "degC"], factor: 1, offset: 273.15 },
      {
        symbol: "°F",
        name: "degree Fahrenheit",
        plural: "degrees Fahrenheit",
        aliases: ["F", "fahrenheit", "degF"],
        factor: 5 / 9,
        offset: 273.15 - (32 * 5) / 9,
      },
      { symbol: "°R", name: "degree Rankine", plural: "degrees Rankine", aliases: ["R", "rankine", "degR"], factor: 5 / 9 },
    ],
  },
  {
    name: "speed",
    title: "Speed",
    base: "m/s",
    units: [
      { symbol: "m/s", name: "metre per second", plural: "metres per second", aliases: ["mps", "meters per second"], factor: 1 },
      { symbol: "km/h", name: "kilometre per hour", plural: "kilometres per hour", aliases: ["kph", "kmh", "kilometers per hour"], factor: 1 / 3.6 },
      { symbol: "mph", name: "mile per hour", plural: "miles per hour", aliases: ["mi/h"], factor: MILE / 3600 },
      { symbol: "kn", name: "knot", aliases: ["kt", "kts"], factor: 1852 / 3600 },
      { symbol: "ft/s", name: "foot per second", plural: "feet per second", aliases: ["fps"], factor: FOOT },
    ],
  },
  {
    name: "data",
    title: "Data size (SI: kB = 1000 B; IEC: KiB = 1024 B)",
    base: "B",
    units: [
      { symbol: "bit", name: "bit", aliases: ["b"], factor: 1 / 8 },
      { symbol: "B", name: "byte", factor: 1 },
      { symbol: "kbit", name: "kilobit", aliases: ["kb", "Kb"], factor: 1e3 / 8 },
      { symbol: "Mbit", name: "megabit", aliases: ["Mb"], factor: 1e6 / 8 },
      { symbol: "Gbit", name: "gigabit", aliases: ["Gb"], factor: 1e9 / 8 },
      { symbol: "kB", name: "kilobyte", aliases: ["KB"], factor: 1e3 },
      { symbol: "MB", name: "megabyte", factor: 1e6 },
      { symbol: "GB", name: "gigabyte", factor: 1e9 },
      { symbol: "TB", name: "terabyte", factor: 1e12 },
      { symbol: "PB", name: "petabyte", factor: 1e15 },
      { symbol: "KiB", name: "kibibyte", factor: 1024 },
      { symbol: "MiB", name: "mebibyte", factor: 1024 ** 2 },
      { symbol: "GiB", name: "gibibyte", factor: 1024 ** 3 },
      { symbol: "TiB", name: "tebibyte", factor: 1024 ** 4 },
      { symbol: "PiB", name: "pebibyte", factor: 1024 ** 5 },
    ],
  },
];
