/**
 * Time zone names as people and models write them. Node's ICU still lists some zones under retired names
 * (Asia/Calcutta, Europe/Kiev); this module presents the current IANA names, resolves loose input (any case,
 * aliases such as US/Eastern, a bare city such as "Tokyo") and suggests close names when nothing matches.
 */

/** ICU name → current IANA name, for the zones ICU still lists under a retired name. */
const RETIRED_NAMES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

const FORMER_NAME: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(RETIRED_NAMES).map(([old, current]) => [current, old]));

let cachedNames: readonly string[] | undefined;
let cachedByLowerName: Map<string, string> | undefined;
let cachedByCity: Map<string, string[]> | undefined;

/** Every zone this runtime knows, by current IANA name, sorted, with "UTC". */
export function zoneNames(): readonly string[] {
  if (cachedNames === undefined) {
    const names = new Set(Intl.supportedValuesOf("timeZone").map((name) => RETIRED_NAMES[name] ?? name));
    names.add("UTC");
    cachedNames = [...names].sort();
  }
  return cachedNames;
}

function byLowerName(): Map<string, string> {
  cachedByLowerName ??= new Map(zoneNames().map((name) => [name.toLowerCase(), name]));
  return cachedByLowerName;
}

function cityOf(zone: string): string {
  return zone.slice(zone.lastIndexOf("/") + 1).toLowerCase();
}

function byCity(): Map<string, string[]> {
  if (cachedByCity === undefined) {
    cachedByCity = new Map();
    for (const zone of zoneNames()) {
      for (const spelling of new Set([zone, FORMER_NAME[zone] ?? zone])) {
        const city = cityOf(spelling);
        const zones = cachedByCity.get(city) ?? [];
        if (!zones.includes(zone)) cachedByCity.set(city, [...zones, zone]);
      }
    }
  }
  return cachedByCity;
}

/** The result of resolving a zone name: the zone, or a message that names the input and suggests names. */
export type ZoneLookup = { ok: true; zone: string } | { ok: false; message: string };

/**
 * Resolves what a caller wrote to a zone name the runtime accepts, preferring current IANA names.
 * @example
 * resolveZone("asia/kolkata") // { ok: true, zone: "Asia/Kolkata" }
 * resolveZone("Tokyo")        // { ok: true, zone: "Asia/Tokyo" }
 */
export function resolveZone(input: string): ZoneLookup {
  const written = input.trim().replace(/ +/g, "_");
  if (written === "") return { ok: false, message: `time zone is empty; give an IANA name such as "Europe/Paris" (the resource time://zones lists them all)` };
  const exact = byLowerName().get(written.toLowerCase());
  if (exact !== undefined) return { ok: true, zone: exact };
  const fromRuntime = runtimeZone(written);
  if (fromRuntime !== undefined) return { ok: true, zone: RETIRED_NAMES[fromRuntime] ?? fromRuntime };
  const cityMatches = byCity().get(written.toLowerCase());
  if (cityMatches?.length === 1) return { ok: true, zone: cityMatches[0] };
  return { ok: false, message: unknownZoneMessage(input, suggestZones(input)) };
}

function runtimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function unknownZoneMessage(input: string, suggestions: string[]): string {
  const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(" or ")}?` : ".";
  return `unknown time zone "${input}"${hint} Use an IANA name such as "America/New_York"; the resource time://zones lists every zone.`;
}

/**
 * Up to `limit` zone names close to what was written: same city spelled nearly alike, or containing it.
 * @example
 * suggestZones("Europe/Pariss") // ["Europe/Paris"]
 */
export function suggestZones(input: string, limit = 3): string[] {
  const wanted = input.trim().replace(/ +/g, "_").toLowerCase();
  if (wanted === "") return [];
  const wantedCity = cityOf(wanted);
  const scored = zoneNames().map((zone) => {
    const spellings = [zone, FORMER_NAME[zone]].filter((name): name is string => name !== undefined).map((name) => name.toLowerCase());
    const distance = Math.min(...spellings.map((name) => Math.min(editDistance(wanted, name), editDistance(wantedCity, cityOf(name)))));
    const contains = wantedCity.length >= 3 && spellings.some((name) => name.includes(wantedCity));
    return { zone, score: contains ? Math.min(distance, 1) : distance };
  });
  const tolerance = Math.max(1, Math.floor(wantedCity.length / 3));
  return scored
    .filter((s) => s.score <= tolerance)
    .sort((a, b) => a.score - b.score || a.zone.localeCompare(b.zone))
    .slice(0, limit)
    .map((s) => s.zone);
}

/**
 * Completion for a zone name: names starting with the prefix, then names whose city starts with it, then names
 * containing it (case-insensitive), at most 100 (the MCP limit).
 */
export function completeZone(prefix: string): string[] {
  const wanted = prefix.trim().replace(/ +/g, "_").toLowerCase();
  const starts: string[] = [];
  const cityStarts: string[] = [];
  const contains: string[] = [];
  for (const zone of zoneNames()) {
    const lower = zone.toLowerCase();
    if (lower.startsWith(wanted)) starts.push(zone);
    else if (cityOf(zone).startsWith(wanted)) cityStarts.push(zone);
    else if (lower.includes(wanted)) contains.push(zone);
  }
  return [...starts, ...cityStarts, ...contains].slice(0, 100);
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
