/**
 * A real headless Chromium (Debian's, at /usr/bin/chromium — scripts/ensure-chromium.mjs installs it) driven by
 * playwright-core, for the operator page's tests. Each launch gets a fresh profile folder, and the flags that keep
 * Chromium from reaching out on its own (background networking, component updates, sync, QUIC): on a closed network
 * those connections are refused, and the page must work without them anyway. Closed by the test's cleanup.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { Cleanup } from "./cleanup.js";

export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A page in a fresh headless Chromium, and every console error and page error it produced. */
export interface BrowserPage {
  page: Page;
  context: BrowserContext;
  /** Console messages of type error, and uncaught page errors, in order. */
  errors: string[];
  /** Every request the page made that did not go to `allowedOrigin`. */
  foreign: string[];
}

/**
 * @example
 * const { page, errors } = await openPage(cleanup, new URL("/", served.baseUrl));
 */
export async function openPage(
  cleanup: Cleanup,
  url: URL,
  options: { viewport?: { width: number; height: number } /** More Chromium flags, e.g. `--host-resolver-rules=…`. */; args?: string[] } = {},
): Promise<BrowserPage> {
  const profile = mkdtempSync(join(tmpdir(), "mcp-host-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, ...(options.args ?? [])],
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  cleanup.add(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const target = new URL(request.url());
    if (target.protocol !== "data:" && target.origin !== url.origin) foreign.push(request.url());
  });
  await page.goto(url.href);
  return { page, context, errors, foreign };
}
