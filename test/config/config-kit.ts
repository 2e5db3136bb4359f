// Helpers for the config tests: real project folders in the temp directory (removed after each test), and one
// assertion for a refused configuration — the exact (code, key path) list, and secrets or URLs absent from the
// whole output (message, problems, JSON form).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isMcpHostError } from "../../src/errors.js";
import { loadConfig, type ConfigProblem, type LoadedConfig } from "../../src/config/index.js";

const made: string[] = [];

/** A fresh folder holding `files` (path → content). */
export async function project(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-host-config-"));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** Removes every folder `project` made; call from afterEach. */
export async function removeProjects(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Loads `yaml` as the project's `.mcp-hostrc.yaml` (with other files beside it). */
export async function loadYaml(
  yaml: string,
  options: { env?: Record<string, string>; files?: Record<string, string>; authKinds?: string[] } = {},
): Promise<LoadedConfig> {
  const cwd = await project({ ".mcp-hostrc.yaml": yaml, ...options.files });
  return loadConfig({ cwd, env: options.env ?? {}, ...(options.authKinds ? { authKinds: options.authKinds } : {}) });
}

/** What a refused configuration reported. */
export interface Refusal {
  message: string;
  problems: readonly ConfigProblem[];
}

/**
 * Asserts that `action` throws CONFIG_INVALID with exactly `expected` ([code, path] pairs, in report order) and
 * that none of `absent` appears anywhere in what it reported.
 */
export async function refused(action: Promise<unknown> | (() => unknown), expected: [string, string][], absent: string[] = []): Promise<Refusal> {
  let caught: unknown;
  try {
    await (typeof action === "function" ? action() : action);
  } catch (error) {
    caught = error;
  }
  assert.ok(isMcpHostError(caught, "CONFIG_INVALID"), `expected CONFIG_INVALID, got ${String(caught)}`);
  const problems = (caught as unknown as { problems: ConfigProblem[] }).problems;
  assert.deepEqual(
    problems.map((p) => [p.code, p.path]),
    expected,
    caught.message,
  );
  const everything = `${caught.message}\n${JSON.stringify(problems)}\n${JSON.stringify(caught)}`;
  for (const secret of absent) assert.ok(!everything.includes(secret), `the output repeats ${JSON.stringify(secret)}:\n${everything}`);
  const lines = caught.message.split("\n").slice(1);
  assert.deepEqual(
    lines,
    problems.map((p) => `${p.code}  ${p.path}  ${p.message}`),
  );
  return { message: caught.message, problems };
}

/** The message of the one problem at `path`. */
export function messageAt(refusal: Refusal, path: string): string {
  const found = refusal.problems.filter((p) => p.path === path);
  assert.equal(found.length, 1, `one problem at ${path}`);
  return found[0]!.message;
}
