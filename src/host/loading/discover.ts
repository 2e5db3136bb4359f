/**
 * Discovery (docs/design.md §5, step one of three): finds the extension modules a project declares, by reading
 * package.json files — the project's own `mcpExtensions` field, its dependencies' and its workspaces'. It imports
 * nothing, so a broken extension cannot break discovery, and a malformed field costs only itself.
 */
import { existsSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { compareNames } from "../../compare.js";
import { describeValue } from "../../describe-value.js";
import { McpHostError } from "../../errors.js";
import type { McpHostErrorCode } from "../../errors.js";
import { workspaceDirs } from "./discover-workspaces.js";
import { defined } from "../../defined.js";

/** One extension module a package declares. */
export interface DiscoveredExtension {
  packageName: string;
  packageVersion?: string;
  /** The package's folder (real path). */
  packageDir: string;
  /** Absolute path of the module to import. */
  entry: string;
  /** The key of the object form of `mcpExtensions`: the default name of the extension(s) it exports. */
  declaredName?: string;
  /** Human-readable origin for messages: `package "foo" (./dist/ext.js)`. */
  source: string;
}

/** Something that could not be discovered or loaded, with the best guess at its extension's name. */
export interface ExtensionLoadFailure {
  /** The declared name, else the package name (or, for a names filter, the name that matched nothing). */
  name: string;
  source: string;
  error: McpHostError;
}

/** What `discoverExtensions` returns: the modules found, sorted, and every problem met on the way. */
export interface DiscoveryResult {
  found: DiscoveredExtension[];
  problems: McpHostError[];
}

/** Options for discovery. */
export interface DiscoverOptions {
  /** The deployment's project folder: the one whose package.json lists the extensions. */
  cwd: string;
}

interface PackageInfo {
  name: string;
  version?: string;
  dir: string;
  json: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Collects what was found and what went wrong, visiting each package folder once. */
class Discovery {
  readonly found: DiscoveredExtension[] = [];
  readonly failures: ExtensionLoadFailure[] = [];
  private readonly visited = new Set<string>();

  fail(code: McpHostErrorCode, name: string, source: string, message: string): void {
    this.failures.push({ name, source, error: new McpHostError(code, message, { extension: name }) });
  }

  /** Reads `<dir>/package.json`; undefined when there is none, or when it is unreadable (reported). */
  async readPackage(dir: string, fallbackName: string): Promise<PackageInfo | undefined> {
    const file = join(dir, "package.json");
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.fail(
        "EXTENSION_INVALID",
        fallbackName,
        `package "${fallbackName}"`,
        `package "${fallbackName}": ${file} is not valid JSON (${reason}); fix the file.`,
      );
      return undefined;
    }
    if (!isRecord(json)) {
      this.fail(
        "EXTENSION_INVALID",
        fallbackName,
        `package "${fallbackName}"`,
        `package "${fallbackName}": ${file} must hold a JSON object, got ${describeValue(json)}; fix the file.`,
      );
      return undefined;
    }
    const name = typeof json.name === "string" && json.name.length > 0 ? json.name : fallbackName;
    const version = typeof json.version === "string" ? json.version : undefined;
    return { name, dir: await realpath(dir), json, ...defined({ version }) };
  }

  /** Records the package's declared extension modules, once per package folder. */
  visit(pkg: PackageInfo): void {
    if (this.visited.has(pkg.dir)) return;
    this.visited.add(pkg.dir);
    const field = pkg.json.mcpExtensions;
    if (field === undefined) return;
    if (typeof field === "string") this.addEntry(pkg, "mcpExtensions", field, undefined);
    else if (Array.isArray(field)) for (const [i, path] of field.entries()) this.addEntry(pkg, `mcpExtensions[${i}]`, path, undefined);
    else if (isRecord(field)) {
      for (const [name, path] of Object.entries(field).sort(([a], [b]) => compareNames(a, b))) {
        if (name.trim().length === 0)
          this.malformed(pkg, "mcpExtensions", `has the key ${JSON.stringify(name)}, but each key is the extension's name; give it a name`);
        else this.addEntry(pkg, `mcpExtensions.${name}`, path, name);
      }
    } else
      this.malformed(
        pkg,
        "mcpExtensions",
        `is ${describeValue(field)}; expected a path like "./dist/extension.js", a list of paths, or an object of name → path`,
      );
  }

  private malformed(pkg: PackageInfo, field: string, problem: string, name = pkg.name): void {
    const message = `package "${pkg.name}" (${join(pkg.dir, "package.json")}): ${field} ${problem}. Fix the field in that package.json.`;
    this.fail("EXTENSION_INVALID", name, `package "${pkg.name}" (${field})`, message);
  }

  private addEntry(pkg: PackageInfo, field: string, path: unknown, declaredName: string | undefined): void {
    const name = declaredName ?? pkg.name;
    if (typeof path !== "string" || path.trim().length === 0) {
      this.malformed(pkg, field, `is ${describeValue(path)}; expected a path relative to the package, like "./dist/extension.js"`, name);
      return;
    }
    const entry = resolve(pkg.dir, path);
    const inside = relative(pkg.dir, entry);
    if (isAbsolute(path) || inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      this.malformed(pkg, field, `is ${describeValue(path)}, which is not inside the package; use a relative path to a file in the package folder`, name);
      return;
    }
    const shown = `./${inside.split(sep).join("/")}`;
    const where = declaredName === undefined ? shown : `${declaredName}: ${shown}`;
    this.found.push({
      packageName: pkg.name,
      ...defined({ packageVersion: pkg.version }),
      packageDir: pkg.dir,
      entry,
      ...defined({ declaredName }),
      source: `package "${pkg.name}" (${where})`,
    });
  }
}

const PACKAGE_NAME = /^(@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i;

/** Where a dependency is installed, seen from `cwd`: Node's resolution, else a walk up through node_modules. */
function resolvePackageDir(cwd: string, dependency: string): string | undefined {
  try {
    return dirname(createRequire(join(cwd, "package.json")).resolve(`${dependency}/package.json`));
  } catch {
    // `exports` may hide package.json (ERR_PACKAGE_PATH_NOT_EXPORTED): look for the folder itself.
  }
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", dependency);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function visitDependencies(discovery: Discovery, root: PackageInfo, cwd: string): Promise<void> {
  const keysOf = (field: unknown) => (isRecord(field) ? Object.keys(field) : []);
  const regular = keysOf(root.json.dependencies);
  // A missing optional dependency is skipped, and so is a missing dev dependency: a production install
  // (npm ci --omit=dev) leaves them out on purpose. Dev dependencies count, so that `npm install -D` of an
  // extension works in a project's development loop.
  const skippable = new Set([...keysOf(root.json.optionalDependencies), ...keysOf(root.json.devDependencies).filter((d) => !regular.includes(d))]);
  for (const dependency of [...new Set([...regular, ...skippable])].sort(compareNames)) {
    const source = `package "${root.name}" dependency "${dependency}"`;
    if (!PACKAGE_NAME.test(dependency)) {
      discovery.fail(
        "EXTENSION_INVALID",
        dependency,
        source,
        `${source}: ${JSON.stringify(dependency)} is not a valid package name; fix the dependencies in ${join(root.dir, "package.json")}.`,
      );
      continue;
    }
    const dir = resolvePackageDir(cwd, dependency);
    if (dir === undefined) {
      if (skippable.has(dependency)) continue;
      discovery.fail(
        "EXTENSION_LOAD_FAILED",
        dependency,
        source,
        `${source} is not installed (looked from ${cwd}); run npm install, or remove it from the dependencies.`,
      );
      continue;
    }
    const pkg = await discovery.readPackage(dir, dependency);
    if (pkg !== undefined) discovery.visit(pkg);
  }
}

async function visitWorkspaces(discovery: Discovery, root: PackageInfo): Promise<void> {
  const { dirs, problems } = await workspaceDirs(root.dir, root.json.workspaces);
  for (const problem of problems) {
    const source = `package "${root.name}" (workspaces)`;
    discovery.fail("EXTENSION_INVALID", root.name, source, `${source}: ${problem}`);
  }
  for (const dir of dirs) {
    const pkg = await discovery.readPackage(dir, relative(root.dir, dir).split(sep).join("/"));
    if (pkg !== undefined) discovery.visit(pkg);
  }
}

function byPackageThenEntry(a: DiscoveredExtension, b: DiscoveredExtension): number {
  return (
    compareNames(a.packageName, b.packageName) ||
    compareNames(a.entry, b.entry) ||
    compareNames(a.declaredName ?? "", b.declaredName ?? "") ||
    compareNames(a.packageDir, b.packageDir)
  );
}

/**
 * Discovery with each problem's best-guess extension name and source, as `loadExtensions` reports them.
 * @example
 * const { found, failures } = await discoverExtensionsDetailed({ cwd: process.cwd() });
 */
export async function discoverExtensionsDetailed(options: DiscoverOptions): Promise<{ found: DiscoveredExtension[]; failures: ExtensionLoadFailure[] }> {
  const cwd = resolve(options.cwd);
  const discovery = new Discovery();
  const isDir = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    discovery.fail(
      "EXTENSION_LOAD_FAILED",
      basename(cwd),
      `folder ${cwd}`,
      `cannot discover extensions: ${cwd} is not a folder; pass the project folder that holds package.json as cwd.`,
    );
    return { found: [], failures: discovery.failures };
  }
  const root = await discovery.readPackage(cwd, basename(cwd));
  if (root !== undefined) {
    discovery.visit(root);
    await visitDependencies(discovery, root, cwd);
    await visitWorkspaces(discovery, root);
  }
  return { found: discovery.found.sort(byPackageThenEntry), failures: discovery.failures };
}

/**
 * Finds the extension modules declared by the project at `cwd`: its own `mcpExtensions` field, then those of its
 * `dependencies`, `optionalDependencies` and `devDependencies` (a missing optional or dev one is skipped), then of its npm workspaces.
 * Reads JSON only. `found` is sorted by package name, then entry path. A folder without package.json declares
 * nothing (no problem); every malformed field or missing dependency is one problem, never a crash.
 * @example
 * const { found, problems } = await discoverExtensions({ cwd: "/srv/my-deployment" });
 * // found[0].source === 'package "mcp-host-plugin-clock" (./dist/extension.js)'
 */
export async function discoverExtensions(options: DiscoverOptions): Promise<DiscoveryResult> {
  const { found, failures } = await discoverExtensionsDetailed(options);
  return { found, problems: failures.map((failure) => failure.error) };
}
