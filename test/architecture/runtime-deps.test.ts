// package.json's runtime dependencies are exactly the packages src/ loads (docs/design.md §2): a dependency no file
// of src/ imports only makes every deployment install it (it belongs in devDependencies, or nowhere), and a package
// src/ imports but does not list works here by hoisting luck and breaks for whoever installs mcp-host. The
// specifiers are read from each file's syntax tree (TypeScript's parser), so code inside a template string — the
// scaffold's files for a new extension — is text, not an import. Type-only imports count: dist/*.d.ts keeps them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SRC = join(REPO, "src");

/** The files the build compiles into dist/ (a `.mjs` under src/ is a dev-only helper the build does not ship). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
    });
}

function literal(node: ts.Node | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** `require("x")` and `createRequire(import.meta.url)("x")`: the ways src/ loads a CommonJS package lazily. */
function isRequireCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text === "require";
  return ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "createRequire";
}

/**
 * Every module specifier in a TypeScript source: imports and re-exports (type-only too), `import("x")`,
 * `typeof import("x")`, `require("x")` and `createRequire(…)("x")`.
 */
export function specifiersOf(file: string, source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let specifier: string | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = literal(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = literal(node.argument.literal);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequireCall(node))) specifier = literal(node.arguments[0]);
    if (specifier !== undefined) found.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Which files import which packages; relative paths, builtins and the package's own name left out. */
function importedPackages(ownName: string): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    for (const specifier of specifiersOf(file, readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".") || isBuiltin(specifier)) continue;
      const name = packageOf(specifier);
      if (name === ownName) continue;
      users.set(name, [...new Set([...(users.get(name) ?? []), relative(REPO, file)])]);
    }
  }
  return users;
}

describe("runtime dependencies", () => {
  it("are exactly the packages src/ imports", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string> };
    const declared = Object.keys(pkg.dependencies ?? {}).sort();
    const imported = importedPackages(pkg.name);
    const unused = declared.filter((name) => !imported.has(name)).map((name) => `${name} is a runtime dependency that no file in src/ imports`);
    const undeclared = [...imported]
      .filter(([name]) => !declared.includes(name))
      .map(([name, files]) => `${name} is imported by ${files.join(", ")} but is not in package.json "dependencies"`);
    assert.deepEqual([...unused, ...undeclared], []);
  });

  it("reads every way src/ names a package, and nothing inside a string", () => {
    const source = [
      'import { a } from "pkg-a";',
      'import type { B } from "@scope/pkg-b/sub";',
      'export { c } from "pkg-c";',
      'const d = await import("pkg-d");',
      'type E = typeof import("pkg-e");',
      'const f = createRequire(import.meta.url)("pkg-f");',
      'const g = require("pkg-g");',
      'const template = `import { h } from "pkg-h";\\n`;',
      'import "./local.js";',
    ].join("\n");
    assert.deepEqual(specifiersOf("probe.ts", source), ["pkg-a", "@scope/pkg-b/sub", "pkg-c", "pkg-d", "pkg-e", "pkg-f", "pkg-g", "./local.js"]);
  });
});
