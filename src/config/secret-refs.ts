/**
 * Secret references (docs/design.md §12): `${env:NAME}` and `${file:./path}` anywhere in a string value, resolved at
 * load. A file path is relative to the config file's folder; a file's trailing newlines are dropped. `$${` writes
 * a literal `${`. Every resolved value (but an instance's name) is collected so later layers can redact it; one shorter than four characters
 * is refused (CONFIG_SECRET_TOO_SHORT), since it could not be redacted. Problems name the key path and the variable
 * or file, never a value.
 */
import { stat, readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { MIN_SECRET_LENGTH } from "../secret-redactor.js";
import type { KeyPath, PathProblem } from "./problems.js";

/** A piece of a string: literal text or a reference. */
export type ReferencePart = { text: string } | { kind: "env" | "file"; name: string };

const TOKEN = /\$\$\{(?=(?:env|file):)|\$\{(env|file):([^}]*)\}|\$\{(?:env|file):/g;

/**
 * Splits a string into literal text and references; `unterminated` when a `${env:` or `${file:` has no `}`.
 * @example
 * parseReferences("Bearer ${env:T}") // { parts: [{ text: "Bearer " }, { kind: "env", name: "T" }], unterminated: false }
 */
export function parseReferences(value: string): { parts: ReferencePart[]; unterminated: boolean } {
  const parts: ReferencePart[] = [];
  let unterminated = false;
  let last = 0;
  let text = "";
  for (const m of value.matchAll(TOKEN)) {
    text += value.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === "$${") text += "${";
    else if (m[1] === undefined) {
      unterminated = true;
      text += m[0];
    } else {
      if (text) parts.push({ text });
      text = "";
      parts.push({ kind: m[1] as "env" | "file", name: m[2]! });
    }
  }
  text += value.slice(last);
  if (text) parts.push({ text });
  return { parts, unterminated };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Keys whose references name things rather than hide them (`instanceId: ${env:HOSTNAME}`): their values are not
 * secrets, so they are neither redacted from every log line nor held to a secret's length.
 */
const NAME_KEYS = new Set(["scaleOut.instanceId"]);
const MAX_SECRET_FILE_BYTES = 1024 * 1024;
const MAX_DEPTH = 64;

/** Where references come from. */
export interface ReferenceSources {
  env: Readonly<Record<string, string | undefined>>;
  /** Folder that relative `${file:…}` paths are relative to. */
  baseDir: string;
}

type Lookup = { value: string } | { problem: string };

async function readSecretFile(name: string, baseDir: string): Promise<Lookup> {
  if (name.trim() === "") return { problem: "a ${file:…} reference names no file" };
  const shown = JSON.stringify(name);
  const path = isAbsolute(name) ? name : resolve(baseDir, name);
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { problem: `the file ${shown} is a folder` };
    if (!info.isFile()) return { problem: `the file ${shown} is not a regular file` };
    if (info.size > MAX_SECRET_FILE_BYTES) return { problem: `the file ${shown} is larger than 1 MiB` };
    const text = (await readFile(path, "utf8")).replace(/(\r?\n)+$/, "");
    return text === "" ? { problem: `the file ${shown} is empty` } : { value: text };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { problem: `the file ${shown} does not exist` };
    if (code === "EACCES" || code === "EPERM") return { problem: `the file ${shown} cannot be read (permission denied)` };
    return { problem: `the file ${shown} cannot be read${typeof code === "string" ? ` (${code})` : ""}` };
  }
}

function readEnv(name: string, env: ReferenceSources["env"]): Lookup {
  if (!ENV_NAME.test(name)) return { problem: "a ${env:…} reference must name a variable (letters, digits and _, not starting with a digit)" };
  const value = env[name];
  if (value === undefined) return { problem: `the environment variable ${JSON.stringify(name)} is not set` };
  if (value === "") return { problem: `the environment variable ${JSON.stringify(name)} is empty` };
  return { value };
}

/** What resolving found: the tree with references replaced, every resolved value, and what could not be resolved. */
export interface Resolution {
  value: unknown;
  secrets: string[];
  problems: PathProblem[];
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Resolves every reference in every string value of `tree` (keys are left alone); the input is not modified.
 * @example
 * await resolveReferences({ headers: { K: "${env:KEY}" } }, { env: { KEY: "s3cret" }, baseDir: "/srv" })
 * // { value: { headers: { K: "s3cret" } }, secrets: ["s3cret"], problems: [] }
 */
export async function resolveReferences(tree: unknown, sources: ReferenceSources): Promise<Resolution> {
  const secrets = new Set<string>();
  const problems: PathProblem[] = [];
  const files = new Map<string, Promise<Lookup>>();
  const ancestors = new Set<object>();

  const resolveString = async (value: string, path: KeyPath): Promise<string> => {
    const { parts, unterminated } = parseReferences(value);
    if (unterminated) problems.push({ code: "CONFIG_SECRET_UNRESOLVED", path, message: 'a ${env:… or ${file:… reference is not closed with "}"' });
    let out = "";
    for (const part of parts) {
      if ("text" in part) {
        out += part.text;
        continue;
      }
      const key = resolve(sources.baseDir, part.name);
      const found =
        part.kind === "env" ? readEnv(part.name, sources.env) : await (files.get(key) ?? files.set(key, readSecretFile(part.name, sources.baseDir)).get(key)!);
      if ("problem" in found) problems.push({ code: "CONFIG_SECRET_UNRESOLVED", path, message: found.problem });
      else if (NAME_KEYS.has(path.join("."))) out += found.value;
      else if (found.value.length < MIN_SECRET_LENGTH) {
        const what = part.kind === "env" ? `the environment variable ${JSON.stringify(part.name)}` : `the file ${JSON.stringify(part.name)}`;
        problems.push({
          code: "CONFIG_SECRET_TOO_SHORT",
          path,
          message: `${what} holds fewer than ${MIN_SECRET_LENGTH} characters: too short to be kept out of logs and answers; use a longer secret, or write a value that is not secret without a reference`,
        });
      } else {
        secrets.add(found.value);
        out += found.value;
      }
    }
    return out;
  };

  const visit = async (value: unknown, path: KeyPath): Promise<unknown> => {
    if (typeof value === "string") return resolveString(value, path);
    if (!Array.isArray(value) && !isPlain(value)) return value;
    if (path.length >= MAX_DEPTH) {
      problems.push({ code: "CONFIG_INVALID", path, message: `is nested more than ${MAX_DEPTH} levels deep` });
      return undefined;
    }
    if (ancestors.has(value)) {
      problems.push({ code: "CONFIG_INVALID", path, message: "contains itself (a circular structure)" });
      return undefined;
    }
    ancestors.add(value);
    try {
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (let i = 0; i < value.length; i++) out.push(await visit(value[i], [...path, i]));
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        Object.defineProperty(out, key, { value: await visit(value[key], [...path, key]), enumerable: true, writable: true, configurable: true });
      }
      return out;
    } finally {
      ancestors.delete(value);
    }
  };

  const value = await visit(tree, []);
  return { value, secrets: [...secrets].sort(), problems };
}
