/**
 * The lookup tables built from the definitions in `setup`: every spelling of every unit, matched exactly first
 * (so "MB" is a megabyte and "Mb" a megabit) and case-insensitively only when that names one unit. Building
 * refuses a spelling claimed by two units, so a mistake in the data fails set-up loudly instead of converting wrong.
 */
import type { CategoryDefinition, UnitDefinition } from "./definitions.js";

export interface Unit {
  symbol: string;
  name: string;
  category: string;
  factor: number;
  offset: number;
  spellings: string[];
}

export type UnitLookup = { ok: true; unit: Unit } | { ok: false; message: string };

export interface Catalogue {
  categories: ReadonlyArray<{ name: string; title: string; base: string; units: readonly Unit[] }>;
  /** How many distinct spellings are recognised. */
  spellingCount: number;
  lookup(text: string): UnitLookup;
}

/** NFKC folds "µ" and "μ", "²" to "2", "℃" to "°C"; spaces and "^" are evened out. */
export function normaliseSpelling(text: string): string {
  return text
    .normalize("NFKC")
    .trim()
    .replace(/\s+/g, " ")
    .replace(/\^/g, "")
    .replace(/ ?\/ ?/g, "/");
}

function spellingsOf(definition: UnitDefinition): string[] {
  const name = definition.name.toLowerCase();
  const plural = (definition.plural ?? `${definition.name}s`).toLowerCase();
  return [...new Set([definition.symbol, ...(definition.aliases ?? []), name, plural].map(normaliseSpelling))];
}

/**
 * Builds the tables; throws when two units claim one spelling.
 * @example
 * buildCatalogue(CATEGORIES).lookup("km/h") // { ok: true, unit: { symbol: "km/h", … } }
 */
export function buildCatalogue(definitions: readonly CategoryDefinition[]): Catalogue {
  const exact = new Map<string, Unit>();
  const folded = new Map<string, Set<Unit>>();
  const categories = definitions.map((category) => {
    const units = category.units.map((definition) => {
      const unit: Unit = {
        symbol: definition.symbol,
        name: definition.name,
        category: category.name,
        factor: definition.factor,
        offset: definition.offset ?? 0,
        spellings: spellingsOf(definition),
      };
      for (const spelling of unit.spellings) {
        const taken = exact.get(spelling);
        if (taken !== undefined)
          throw new Error(`unit spelling "${spelling}" is claimed by both ${taken.name} (${taken.category}) and ${unit.name} (${unit.category})`);
        exact.set(spelling, unit);
        const key = spelling.toLowerCase();
        folded.set(key, (folded.get(key) ?? new Set()).add(unit));
      }
      return unit;
    });
    if (!units.some((unit) => unit.symbol === category.base && unit.factor === 1 && unit.offset === 0)) {
      throw new Error(`category "${category.name}" names base unit "${category.base}", which is not one of its units with factor 1`);
    }
    return { name: category.name, title: category.title, base: category.base, units };
  });
  return { categories, spellingCount: exact.size, lookup: (text) => lookup(text, exact, folded) };
}

function lookup(text: string, exact: Map<string, Unit>, folded: Map<string, Set<Unit>>): UnitLookup {
  const spelling = normaliseSpelling(text);
  const found = exact.get(spelling);
  if (found !== undefined) return { ok: true, unit: found };
  const candidates = [...(folded.get(spelling.toLowerCase()) ?? [])];
  if (candidates.length === 1) return { ok: true, unit: candidates[0] };
  if (candidates.length > 1) {
    const choices = candidates.map((unit) => `"${unit.symbol}" (${unit.name})`).join(" or ");
    return { ok: false, message: `unit "${text}" is ambiguous: ${choices}; write the symbol with its exact case` };
  }
  const near = suggest(spelling.toLowerCase(), exact);
  const hint = near.length > 0 ? `; did you mean ${near.map((unit) => `"${unit.symbol}" (${unit.name})`).join(", ")}?` : ".";
  return { ok: false, message: `unknown unit "${text}"${hint} The list_units tool shows every unit and its spellings.` };
}

function suggest(wanted: string, exact: Map<string, Unit>): Unit[] {
  const typos = new Set<Unit>();
  const containing = new Set<Unit>();
  for (const [spelling, unit] of exact) {
    const lower = spelling.toLowerCase();
    if (closeEnough(wanted, lower)) typos.add(unit);
    else if ((wanted.length >= 2 && lower.includes(wanted)) || (lower.length >= 3 && wanted.includes(lower))) containing.add(unit);
  }
  return [...(typos.size > 0 ? typos : containing)].slice(0, 5);
}

/** True when the two spellings differ by one edit and are long enough for that to mean a typo. */
function closeEnough(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 4 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** The value in the target unit; throws below absolute zero. */
export function convert(value: number, from: Unit, to: Unit): number {
  const base = value * from.factor + from.offset;
  if (from.category === "temperature" && base < -1e-9) {
    throw new RangeError(`${value} ${from.symbol} is below absolute zero (0 K)`);
  }
  return (base - to.offset) / to.factor;
}
