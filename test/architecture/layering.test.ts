// Imports point one way (docs/design.md §2): extension ← host ← observe ← http ← cli; the registry stands alone; the gateway
// (upstream) uses only the extension contract and the registry; config turns files into plain options; scale-out (the
// fleet's Redis) stands on the base files alone, and http knows only its types (the command makes the fleet). The root
// entry and the contract load nothing heavier than themselves at run time. This test reads every import in src/.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

type Layer =
  | "base"
  | "extension"
  | "tasks"
  | "skills"
  | "host"
  | "discovery"
  | "observe"
  | "http"
  | "config"
  | "registry"
  | "upstream"
  | "scale-out"
  | "cli"
  | "entry";

const BASE_FILES = new Set([
  "errors.ts",
  "logger.ts",
  "names.ts",
  "clock.ts",
  "manual-clock.ts",
  "compare.ts",
  "defined.ts",
  "describe-value.ts",
  "timeout.ts",
  // Deadlines of one length on one clock, behind one timer (the host's tool budgets and the HTTP layer's alike).
  "deadlines.ts",
  // The linear-time pattern engine, shared by the host's and the registry's ajv (which each load ajv themselves).
  "linear-regexp.ts",
  "regexp-to-re2.ts",
  "linear-formats.ts",
  "schema-patterns.ts",
  // One redactor for every output (the config's secrets, credentials learned at run time).
  "secret-redactor.ts",
  // "Did you mean": for config keys and for toolsets in a URL.
  "suggest.ts",
  // One rule for a per-caller share left unset (half its table), for the config schema and the HTTP face alike.
  "per-caller-share.ts",
]);
// The root entry (the extension contract); every other package entry is a file of src/entries/.
const ENTRY_FILES = new Set(["index.ts"]);

function layerOf(file: string): Layer {
  const path = relative(SRC, file).split("\\").join("/");
  if (!path.includes("/")) {
    if (BASE_FILES.has(path)) return "base";
    if (ENTRY_FILES.has(path)) return "entry";
    throw new Error(`src/${path} belongs to no layer: add it to the layering test`);
  }
  const folder = path.split("/")[0]!;
  return (folder === "entries" ? "entry" : folder) as Layer;
}

/** Which layers each layer may import from (besides itself). */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  base: [],
  extension: ["base"],
  // The MCP Tasks extension (docs/tasks.md): its wire shapes, store and board; the host runs calls as its tasks.
  tasks: ["base", "extension"],
  // The skills extension (SEP-2640): what an extension ships, read and served; the host builds and serves it.
  skills: ["base", "extension"],
  host: ["base", "extension", "tasks", "skills"],
  // Server cards and the catalog (SEP-2127): the host's named endpoints as discovery documents; the HTTP layer serves them.
  discovery: ["base", "extension", "host"],
  // Logs, metrics and traces listen to the host (its observer seam) and are mounted by the HTTP edge and the CLI.
  observe: ["base", "extension", "tasks", "host"],
  http: ["base", "extension", "tasks", "skills", "host", "discovery", "observe", "scale-out"],
  config: ["base"],
  registry: ["base"],
  upstream: ["base", "extension", "registry"],
  // A fleet of instances behind a load balancer: Redis-backed events and rate counts, on the base files alone.
  "scale-out": ["base"],
  cli: ["base", "extension", "tasks", "skills", "host", "discovery", "observe", "http", "config", "registry", "upstream", "scale-out"],
  entry: ["base", "extension", "tasks", "skills", "host", "discovery", "observe", "http", "config", "registry", "upstream", "scale-out"],
};

/** Layers another layer may know only by their types: nothing of them loads unless someone else made one. */
const TYPES_ONLY: Partial<Record<Layer, readonly Layer[]>> = {
  // The HTTP app is given a fleet (the command makes it, only with `scaleOut:`); it never makes one itself.
  http: ["scale-out"],
};

/** Single files a layer may use from a layer it otherwise may not (pure rules shared on purpose). */
const EXCEPTIONS: Record<string, readonly string[]> = {
  config: ["extension/toolset-name.ts"],
};

/**
 * Packages a layer must not load at run time (type-only imports are fine: they vanish when compiled). The Redis
 * client belongs to scale-out alone, which imports it only when a fleet with Redis is made.
 */
const FORBIDDEN_PACKAGES: Partial<Record<Layer, readonly string[]>> = {
  base: ["express", "ajv", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "piscina", "pino", "prom-client", "@opentelemetry/api", "ioredis"],
  extension: [
    "express",
    "ajv",
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/client",
    "piscina",
    "pino",
    "prom-client",
    "@opentelemetry/api",
    "ioredis",
  ],
  tasks: ["express", "cors", "ajv", "piscina", "pino", "prom-client", "@opentelemetry/api", "ioredis"],
  skills: ["express", "cors", "ajv", "pino", "prom-client", "@opentelemetry/api", "ioredis"],
  host: ["express", "cors", "pino", "prom-client", "@opentelemetry/api", "ioredis"],
  discovery: ["express", "cors", "pino", "prom-client", "@opentelemetry/api", "ioredis"],
  observe: ["express", "cors", "ioredis"],
  http: ["ioredis"],
  config: ["express", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "ioredis"],
  registry: ["express", "@modelcontextprotocol/server", "ioredis"],
  upstream: ["express", "ioredis"],
  "scale-out": ["express", "@modelcontextprotocol/client"],
  cli: ["ioredis"],
  entry: ["ioredis"],
};

interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** The imports and re-exports of a TypeScript source, with whether each is type-only. */
export function importsOf(source: string): Import[] {
  const out: Import[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const match of source.matchAll(pattern)) out.push({ specifier: match[3]!, typeOnly: match[2] !== undefined });
  for (const match of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push({ specifier: match[1]!, typeOnly: false });
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every import in `files` that points the wrong way, as `from → to (why)`. */
function violations(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    const shown = relative(SRC, file);
    for (const { specifier, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) {
        const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
        const to = layerOf(target);
        const exception = (EXCEPTIONS[from] ?? []).includes(relative(SRC, target).split("\\").join("/"));
        if (to !== from && !ALLOWED[from].includes(to) && !exception) found.push(`${shown} → ${relative(SRC, target)} (${from} may not import ${to})`);
        else if (!typeOnly && (TYPES_ONLY[from] ?? []).includes(to))
          found.push(`${shown} → ${relative(SRC, target)} (${from} may know ${to} only by its types)`);
      } else if (!specifier.startsWith("node:") && !typeOnly && (FORBIDDEN_PACKAGES[from] ?? []).includes(packageOf(specifier))) {
        found.push(`${shown} → ${specifier} (${from} must not load ${packageOf(specifier)} at run time)`);
      }
    }
  }
  return found.sort();
}

describe("layering", () => {
  it("every import in src/ points the way docs/design.md §2 allows", () => {
    assert.deepEqual(violations(sourceFiles(SRC)), []);
  });

  it("keeps src/http's parts apart: the edge knows nothing of MCP serving, serving nothing of the app around it", () => {
    // The edge (every request: facts, target, Host, routing) ← auth (token checks) ← mcp (the server a selection is
    // built with, and the SDK behind it) ← observe (what is mounted to watch them) ← the app that puts them together.
    const RANK: Record<string, number> = { edge: 0, auth: 1, mcp: 2, observe: 3, app: 4 };
    const partOf = (file: string): string => {
      const path = relative(join(SRC, "http"), file).split("\\").join("/");
      return path.includes("/") ? path.split("/")[0]! : "app";
    };
    const http = sourceFiles(join(SRC, "http"));
    const found: string[] = [];
    for (const file of http) {
      const from = partOf(file);
      for (const { specifier, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
        if (!specifier.startsWith(".") || typeOnly) continue;
        const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
        if (!target.startsWith(join(SRC, "http"))) continue;
        const to = partOf(target);
        if (RANK[to]! > RANK[from]!) found.push(`${relative(SRC, file)} → ${relative(SRC, target)} (http/${from} may not use http/${to})`);
      }
    }
    assert.ok(
      http.some((f) => partOf(f) === "edge"),
      "src/http/edge exists",
    );
    assert.deepEqual(found.sort(), []);
  });

  it("reads imports the way the check needs: value and type-only, static and dynamic, imports and re-exports", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      "import express, { type Request } from 'express';",
      'export { c } from "./c.js";',
      'export type { D } from "./d.js";',
      'const lazy = await import("./lazy.js");',
      'import "./side-effect.js";',
    ].join("\n");
    assert.deepEqual(importsOf(source), [
      { specifier: "./a.js", typeOnly: false },
      { specifier: "../b.js", typeOnly: true },
      { specifier: "express", typeOnly: false },
      { specifier: "./c.js", typeOnly: false },
      { specifier: "./d.js", typeOnly: true },
      { specifier: "./side-effect.js", typeOnly: false },
      { specifier: "./lazy.js", typeOnly: false },
    ]);
  });
});
