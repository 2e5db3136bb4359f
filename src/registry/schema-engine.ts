/**
 * Every ajv instance the registry makes (the outputSchema check of an upstream's structured content, and the
 * validator handed to each SDK client): an upstream's schema and an upstream's payload are neither of them the
 * registry's to trust, so their patterns and formats run in linear time (`src/linear-regexp.ts`). A pattern no
 * linear engine can run is, by the caller's choice, refused (the schema does not compile) or not enforced.
 */
import AjvModule from "ajv";
import Ajv2019Module from "ajv/dist/2019.js";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { useLinearFormats } from "../linear-formats.js";
import { ajvRegExp, type LinearRegExp, UnrunnablePatternError } from "../linear-regexp.js";

export type AjvLike = InstanceType<typeof AjvModule.default>;
export type Dialect = "07" | "2019" | "2020";

const Ajv07 = AjvModule.default;
const Ajv2019 = Ajv2019Module.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** Matches everything: what an unenforced pattern becomes. */
const UNENFORCED: LinearRegExp = { test: () => true, toString: () => "/(?:)/unenforced" };

/** A pattern the linear engine refused at compile time, left unenforced. */
export interface UnenforcedPattern {
  pattern: string;
  reason: string;
}

/**
 * The draft a schema's `$schema` names (none: 2020-12).
 * @example
 * dialectOf({ $schema: "http://json-schema.org/draft-07/schema#" }) // "07"
 */
export function dialectOf(schema: Record<string, unknown>): Dialect {
  const id = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[4-7]/.test(id)) return "07";
  if (id.includes("2019-09")) return "2019";
  return "2020";
}

/**
 * An ajv instance for `dialect` whose patterns and formats are linear. With `onUnenforced`, a pattern the engine
 * cannot run matches everything and is reported; without it, it throws and the schema does not compile (as it
 * always does for what is no pattern at all).
 * @example
 * const ajv = linearAjv("2020", { onUnenforced: (p) => warn(p.pattern) });
 */
export function linearAjv(dialect: Dialect, options: { allErrors?: boolean; onUnenforced?: (pattern: UnenforcedPattern) => void } = {}): AjvLike {
  const { onUnenforced } = options;
  const regExp =
    onUnenforced === undefined
      ? ajvRegExp
      : Object.assign(
          (source: string, flags: string) => {
            try {
              return ajvRegExp(source, flags);
            } catch (error) {
              if (!(error instanceof UnrunnablePatternError)) throw error; // no pattern at all: the schema does not compile
              onUnenforced({ pattern: source, reason: error.message });
              return UNENFORCED;
            }
          },
          { code: ajvRegExp.code },
        );
  const Ctor = dialect === "07" ? Ajv07 : dialect === "2019" ? Ajv2019 : Ajv2020;
  const ajv = new Ctor({ strict: false, allErrors: options.allErrors ?? false, validateSchema: false, code: { regExp } }) as AjvLike;
  addFormats(ajv as never);
  useLinearFormats(ajv);
  return ajv;
}
