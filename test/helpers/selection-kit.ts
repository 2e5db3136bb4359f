/**
 * The extension the selection-modifier and tool-search tests share: the docs/design.md §6 fixture (core always on,
 * spaces default, benchmarks and library not) with tools that are read-only, writing, destructive and unannotated,
 * so `readonly`, `tools=` and `search` each have something to keep and something to leave out. The §6 table of
 * modifiers is written against exactly these tools.
 */
import type { McpExtension, ToolSpec } from "../../src/extension/types.js";
import { defined } from "../../src/defined.js";

function tool(
  name: string,
  toolset: string,
  description: string,
  annotations?: ToolSpec<any>["annotations"],
  extra: Partial<ToolSpec<any>> = {},
): ToolSpec<any> {
  return {
    name,
    toolset,
    description,
    ...defined({ annotations }),
    handler: (args) => ({ content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }] }),
    ...extra,
  };
}

export const BOOK_ID = {
  type: "object",
  properties: { id: { type: "string", description: "The book's catalogue id" } },
  required: ["id"],
  additionalProperties: false,
} as const;

/**
 * core (always): ping · spaces (default): search_spaces, create_space · benchmarks: run_benchmark, get_result ·
 * library: get_book, lend_book, burn_book, plus a resource and a prompt.
 */
export function selectionExtensions(): McpExtension[] {
  return [
    {
      name: "workspace",
      toolsets: [
        { name: "core", always: true, title: "Core" },
        { name: "spaces", title: "Spaces", description: "Shared workspaces" },
        { name: "benchmarks", default: false, title: "Benchmarks", description: "Performance runs" },
        { name: "library", default: false, title: "Library", description: "Books and loans", instructions: "Ask for the id before lending." },
      ],
      tools: [
        tool("ping", "core", "Checks that the server answers", { readOnlyHint: true }),
        tool("search_spaces", "spaces", "Searches workspaces by name", { readOnlyHint: true }),
        tool("create_space", "spaces", "Creates a new workspace", { readOnlyHint: false }),
        tool("run_benchmark", "benchmarks", "Runs a benchmark suite (no annotations at all)"),
        tool("get_result", "benchmarks", "Reads the result of a finished benchmark run", { readOnlyHint: true }),
        tool("get_book", "library", "Looks a book up by its catalogue id", { readOnlyHint: true }, { inputSchema: BOOK_ID }),
        tool("lend_book", "library", "Lends a book to a reader", { readOnlyHint: false }, { inputSchema: BOOK_ID }),
        tool("burn_book", "library", "Removes a book from the catalogue for good", { destructiveHint: true }),
      ],
      resources: [{ uri: "library://rules", name: "rules", toolset: "library", read: () => ({ contents: [{ uri: "library://rules", text: "be quiet" }] }) }],
      prompts: [{ name: "recommend", toolset: "library", get: () => ({ messages: [] }) }],
    },
  ];
}
