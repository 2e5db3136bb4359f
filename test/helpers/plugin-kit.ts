/**
 * What the first-party plugin tests share: a started host that is stopped after each test, and calls that check a
 * tool's structured content against the output schema the client was shown (and that the text block mirrors it).
 */
import assert from "node:assert/strict";
import { afterEach } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { McpExtension } from "../../src/extension/types.js";
import type { McpHost } from "../../src/host/host.js";
import type { HostOptions } from "../../src/host/host-options.js";
import type { LogRecord } from "../../src/logger.js";
import { startedHost, textOf } from "./kit.js";
import { connectInProcess } from "./in-process.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

/** A started host over `extensions`, stopped after the test. */
export async function pluginHost(extensions: readonly McpExtension[], options: Partial<HostOptions> = {}): Promise<{ host: McpHost; records: LogRecord[] }> {
  const started = await startedHost(extensions, options);
  hosts.push(started.host);
  return started;
}

/** Runs `body` with a client on `query`, closing the connection afterwards. */
export async function withClient<T>(host: McpHost, query: string, era: "legacy" | "modern", body: (client: Client) => Promise<T>): Promise<T> {
  const { client, close } = await connectInProcess(host, query, { era });
  try {
    return await body(client);
  } finally {
    await close();
  }
}

/**
 * Calls a tool that must succeed; checks its structured content against the tool's listed output schema and
 * that its text block is the same JSON. Returns the structured content.
 */
export async function callStructured(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const listed = (await client.listTools()).tools.find((tool) => tool.name === name);
  assert.ok(listed?.outputSchema, `tool "${name}" should be listed with an output schema`);
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `tool "${name}" failed: ${JSON.stringify(result.content)}`);
  const structured = result.structuredContent as Record<string, unknown>;
  const validate = ajv.compile(listed.outputSchema);
  assert.ok(validate(structured), `structured content of "${name}" breaks its output schema: ${ajv.errorsText(validate.errors)}`);
  assert.deepEqual(JSON.parse(textOf(result)), structured);
  return structured;
}

/** The sorted names of what a client lists. */
export async function listedNames(client: Client): Promise<{ tools: string[]; prompts: string[]; resources: string[]; templates: string[] }> {
  const sorted = (names: string[]) => [...names].sort();
  return {
    tools: sorted((await client.listTools()).tools.map((tool) => tool.name)),
    prompts: sorted((await client.listPrompts()).prompts.map((prompt) => prompt.name)),
    resources: sorted((await client.listResources()).resources.map((resource) => resource.uri)),
    templates: sorted((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)),
  };
}

/** The text of the one text content of a resource read. */
export function resourceText(result: { contents: Array<{ uri: string; text?: string; blob?: string }> }): string {
  assert.equal(result.contents.length, 1);
  assert.equal(typeof result.contents[0]!.text, "string");
  return result.contents[0]!.text!;
}

/** The JSON-RPC error code, SDK error class and message a rejected request carried. */
export async function rejection(promise: Promise<unknown>): Promise<{ code: unknown; name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    return { code, name: (error as Error).constructor.name, message };
  }
  assert.fail("the request should have been rejected");
}
