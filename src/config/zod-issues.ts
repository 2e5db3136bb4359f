/**
 * Turns zod issues into configuration problems with messages written for the person editing the file: ranges
 * quoted in full, unknown keys with a suggestion, unions explained by their branches. Messages never quote a
 * string value (it may be a secret); numbers and key names are safe to show.
 */
import type { z } from "zod";
import type { PathProblem } from "./problems.js";
import { knownKeys, numberBounds, schemaAt, valueAt } from "./schema-walk.js";
import { closestKey } from "../suggest.js";

type Issue = z.core.$ZodIssue;

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a map",
  record: "a map",
  array: "a list",
};

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : "a non-finite number";
  if (typeof value === "object") return "a map";
  if (typeof value === "boolean") return "true or false";
  return `a ${typeof value}`;
}

function rangeText(bounds: { min?: number; max?: number; integer: boolean }): string {
  const what = bounds.integer ? "a whole number" : "a number";
  if (bounds.min !== undefined && bounds.max !== undefined) return `must be ${what} from ${bounds.min} to ${bounds.max}`;
  if (bounds.min !== undefined) return `must be ${what} of at least ${bounds.min}`;
  if (bounds.max !== undefined) return `must be ${what} of at most ${bounds.max}`;
  return `must be ${what}`;
}

function numberMessage(root: z.ZodType, path: PropertyKey[], input: unknown): string {
  const value = valueAt(input, path);
  const bounds = numberBounds(schemaAt(root, path, input)) ?? { integer: false };
  return `${rangeText(bounds)}${typeof value === "number" && Number.isFinite(value) ? `, got ${value}` : ""}`;
}

function sizeMessage(issue: Extract<Issue, { code: "too_small" | "too_big" }>): string {
  const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  if (issue.origin === "string")
    return issue.code === "too_small" && limit === 1
      ? "must not be empty"
      : `must be ${issue.code === "too_small" ? "at least" : "at most"} ${limit} characters`;
  const noun = limit === 1 ? "value" : "values";
  return issue.code === "too_small" ? `must list at least ${limit} ${noun}` : `must list at most ${limit} ${noun}`;
}

function unionMessage(issue: Extract<Issue, { code: "invalid_union" }>, root: z.ZodType, input: unknown): PathProblem[] {
  const atRoot = (branch: readonly Issue[]) => branch.every((i) => i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value"));
  const relevant = issue.errors.filter((branch) => !atRoot(branch));
  if (relevant.length === 0) {
    const expected = issue.errors.flatMap((branch) =>
      branch.map((i) =>
        i.code === "invalid_type"
          ? (EXPECTED[i.expected] ?? i.expected)
          : i.code === "invalid_value"
            ? i.values.map((v) => JSON.stringify(v)).join(" or ")
            : "",
      ),
    );
    return [{ code: "CONFIG_INVALID", path: pathOf(issue.path), message: `expected ${[...new Set(expected.filter(Boolean))].join(" or ")}` }];
  }
  const best = [...relevant].sort((a, b) => a.length - b.length)[0]!;
  return best.flatMap((inner) => issueToProblems({ ...inner, path: [...issue.path, ...inner.path] } as Issue, root, input));
}

function pathOf(path: readonly PropertyKey[]): (string | number)[] {
  return path.filter((s): s is string | number => typeof s !== "symbol");
}

function issueToProblems(issue: Issue, root: z.ZodType, input: unknown): PathProblem[] {
  const path = pathOf(issue.path);
  const one = (message: string): PathProblem[] => [{ code: "CONFIG_INVALID", path, message }];
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = knownKeys(schemaAt(root, path, input));
      return issue.keys.map((key) => {
        const near = closestKey(key, known);
        const hint = near === undefined ? `the keys here are ${known.join(", ")}` : `did you mean ${JSON.stringify(near)}?`;
        return { code: "CONFIG_INVALID", path: [...path, key], message: `unknown key; ${hint}` };
      });
    }
    case "invalid_type": {
      const value = valueAt(input, path);
      if (issue.expected === "int" || (issue.expected === "number" && typeof value === "number")) return one(numberMessage(root, path, input));
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return one(value === undefined ? `is required (${expected})` : `expected ${expected}, got ${describe(value)}`);
    }
    case "too_small":
    case "too_big":
      return one(issue.origin === "number" ? numberMessage(root, path, input) : sizeMessage(issue));
    case "invalid_value":
      return one(
        issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`,
      );
    case "invalid_union":
      return unionMessage(issue, root, input);
    case "invalid_format":
    case "custom":
      return one(issue.message);
    default:
      return one("is not valid here");
  }
}

/**
 * Problems for the issues of a failed parse of `input` against `root`.
 * @example
 * const r = deploymentConfigSchema.safeParse(raw);
 * if (!r.success) problems.push(...zodProblems(r.error.issues, deploymentConfigSchema, raw));
 */
export function zodProblems(issues: readonly Issue[], root: z.ZodType, input: unknown): PathProblem[] {
  return issues.flatMap((issue) => issueToProblems(issue, root, input));
}
