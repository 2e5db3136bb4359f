/**
 * The full-text index `find_tools` searches (docs/design.md §7, tool-search mode): one MiniSearch (BM25+) index per
 * build over each tool's name, title, description, toolset and argument names, made on the first search and kept
 * with the build. Identifiers are split into words (`get_issue`, `getIssue`, `git.status`), words are reduced to a
 * light stem and a few common synonyms to one word, so "removing a file" finds `delete_file`. Equal scores are
 * ordered by name: the same query on the same build always gives the same list.
 */
import MiniSearch from "minisearch";
import type { CompiledTool } from "./build-tables.js";
import { defined } from "../../defined.js";

/** What the index needs of one tool. */
export interface SearchableTool {
  name: string;
  rawName: string;
  toolset: string;
  title?: string;
  description?: string;
  argumentNames: readonly string[];
}

interface ToolDocument {
  id: number;
  name: string;
  title: string;
  description: string;
  toolset: string;
  args: string;
}

/** Words with no weight in a tool search ("how do I list the files in a folder" is about lists, files, folders). */
const STOP_WORDS = new Set(
  (
    "a an the and or of to in on for from with by at as into onto about is are be been was were it its this that these those " +
    "i me my we our you your he she they them their can could would should will shall may might must do does did done " +
    "please want need like some any all every each which what who whom whose when where why how there here then than " +
    "so not no yes if else also just only very too via per using use tool tools one"
  ).split(" "),
);

/** Words a person uses for what tools usually name with another word: one word stands for each group. */
const SYNONYMS: Record<string, string> = {
  fetch: "get",
  retrieve: "get",
  read: "get",
  obtain: "get",
  show: "get",
  view: "get",
  display: "get",
  remove: "delete",
  erase: "delete",
  destroy: "delete",
  drop: "delete",
  trash: "delete",
  discard: "delete",
  add: "create",
  new: "create",
  make: "create",
  edit: "update",
  modify: "update",
  change: "update",
  alter: "update",
  find: "search",
  lookup: "search",
  query: "search",
  locate: "search",
  enumerate: "list",
  execute: "run",
  launch: "run",
  invoke: "run",
  trigger: "run",
  start: "run",
  save: "write",
  store: "write",
  disable: "deactivate",
  upload: "put",
  download: "get",
  internet: "web",
  online: "web",
  remember: "memory",
  recall: "memory",
  bug: "issue",
  ticket: "issue",
  dir: "folder",
  directory: "folder",
  repository: "repo",
  pr: "pull",
  doc: "document",
  info: "detail",
  information: "detail",
};

/**
 * Splits text and identifiers into lower-case words: `getIssue`, `get_issue`, `get-issue`, `git.status`. A word
 * written in mixed case is kept whole as well as split (`GitHub` → `github`, `git`, `hub`; `PromQL` → `promql`, …),
 * so a query that writes it in one piece still meets it.
 */
export function toolWords(text: string): string[] {
  const words: string[] = [];
  for (const token of text.split(/[^A-Za-z0-9]+/)) {
    if (token.length === 0) continue;
    const parts = token
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .toLowerCase()
      .split(" ");
    if (parts.length > 1) words.push(token.toLowerCase());
    words.push(...parts);
  }
  return words;
}

/** A light English stem: plurals, -ing, -ed and a final e go, so "creating", "created" and "create" meet. */
export function stemWord(input: string): string {
  let word = input;
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) word = word.slice(0, -3);
  else if (word.endsWith("ed") && word.length > 4) word = word.slice(0, -2);
  if (/([^aeioulsz])\1$/.test(word)) word = word.slice(0, -1);
  if (word.endsWith("e") && word.length > 3) word = word.slice(0, -1);
  return word;
}

/** The synonyms by stem, so every inflection of a word meets its group's word ("changes", "changed", "change"). */
const SYNONYM_STEMS = new Map(Object.entries(SYNONYMS).map(([word, meaning]) => [stemWord(word), stemWord(meaning)]));

/** One word as the index keeps it, or null for a stop word. */
function processTerm(term: string): string | null {
  if (STOP_WORDS.has(term)) return null;
  const stem = stemWord(term);
  return SYNONYM_STEMS.get(stem) ?? stem;
}

const FIELDS = ["name", "title", "description", "toolset", "args"] as const;
const BOOST = { name: 3, title: 2, description: 1, toolset: 1.5, args: 0.75 };

/** The searchable facts of a compiled tool: its listed and raw names, title, description and argument names. */
export function searchableOf(tool: CompiledTool): SearchableTool {
  const properties = (tool.wire.inputSchema as { properties?: Record<string, unknown> }).properties;
  const title = tool.wire.title ?? tool.wire.annotations?.title;
  return {
    name: tool.name,
    rawName: tool.rawName,
    toolset: tool.toolset,
    ...defined({ title, description: tool.wire.description }),
    argumentNames: properties === undefined || typeof properties !== "object" ? [] : Object.keys(properties),
  };
}

/** A tool that matched, with its score. */
export interface ToolMatch {
  index: number;
  score: number;
}

export class ToolSearchIndex {
  private readonly index: MiniSearch<ToolDocument>;
  private readonly names: readonly string[];

  /**
   * @example
   * const index = new ToolSearchIndex(tools.map(searchableOf), (toolset) => "");
   */
  constructor(tools: readonly SearchableTool[], toolsetText: (toolset: string) => string) {
    this.names = tools.map((tool) => tool.name);
    this.index = new MiniSearch<ToolDocument>({
      fields: [...FIELDS],
      tokenize: toolWords,
      processTerm,
      searchOptions: { boost: BOOST, prefix: (term) => term.length >= 4, fuzzy: (term) => (term.length >= 6 ? 0.2 : false), maxFuzzy: 2 },
    });
    const described = new Map<string, string>();
    const textOf = (toolset: string) => {
      let text = described.get(toolset);
      if (text === undefined) {
        text = `${toolset} ${toolsetText(toolset)}`;
        described.set(toolset, text);
      }
      return text;
    };
    this.index.addAll(
      tools.map((tool, id) => ({
        id,
        name: tool.name === tool.rawName ? tool.name : `${tool.name} ${tool.rawName}`,
        title: tool.title ?? "",
        description: tool.description ?? "",
        toolset: textOf(tool.toolset),
        args: tool.argumentNames.join(" "),
      })),
    );
  }

  get size(): number {
    return this.names.length;
  }

  /**
   * The best `limit` matches of `query`, best first; equal scores by name.
   * @example
   * index.search("open an issue", 5) // [{ index: 12, score: 9.1 }, …]
   */
  search(query: string, limit: number): ToolMatch[] {
    const results = this.index.search(query);
    return results
      .map((result) => ({ index: result.id as number, score: result.score }))
      .sort((a, b) => b.score - a.score || compareStrings(this.names[a.index]!, this.names[b.index]!))
      .slice(0, limit);
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
