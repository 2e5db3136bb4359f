// The fenced code blocks of a Markdown page, with the sample directives written in HTML comments right above them
// (invisible on the rendered page): what test/docs/code-samples.test.ts type-checks, and how CONTRIBUTING.md says to
// write a checked sample.

/** One fenced block of a page. */
export interface DocBlock {
  /** The page, relative to the repository (`docs/auth.md`). */
  page: string;
  /** The 1-based line of the opening fence: where a reader finds the block. */
  line: number;
  /** The fence's language tag, lower case (`ts`, `yaml`, `` when none). */
  lang: string;
  /** The block's text, without the fences and without the indentation of a fence nested in a list. */
  code: string;
  /** `<!-- sample-context: CODE -->`: code prepended when the block is checked (imports, `declare const …`). */
  context?: string;
  /** `<!-- sample-file: NAME.ts -->`: the file name another sample of the page imports the block by (`./NAME.js`). */
  file?: string;
  /** `<!-- sample: not-checked (REASON) -->`: the block is deliberately not checked; the reason ("" when none was given). */
  notChecked?: string;
}

interface Comment {
  start: number;
  end: number;
  text: string;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function commentsOf(markdown: string): Comment[] {
  return [...markdown.matchAll(/<!--([\s\S]*?)-->/g)].map((m) => ({
    start: lineAt(markdown, m.index),
    end: lineAt(markdown, m.index + m[0].length),
    text: m[1]!.trim(),
  }));
}

/** The comments standing right above line `line`: the one ending on the line before it, the one before that, … */
function attachedComments(comments: Comment[], line: number): Comment[] {
  const attached: Comment[] = [];
  for (let next = line; ; ) {
    const above = comments.find((c) => c.end === next - 1);
    if (!above) return attached.reverse();
    attached.push(above);
    next = above.start;
  }
}

function applyDirective(block: DocBlock, comment: string): void {
  const context = /^sample-context:\s*([\s\S]*)$/.exec(comment);
  if (context) block.context = context[1]!.trim();
  const file = /^sample-file:\s*(\S+)$/.exec(comment);
  if (file) block.file = file[1]!;
  const skipped = /^sample:\s*not-checked\b\s*(?:\(([\s\S]*)\))?\s*$/.exec(comment);
  if (skipped) block.notChecked = (skipped[1] ?? "").trim();
}

/**
 * Every fenced block of `markdown` (a page at `page`), in order, with its sample directives.
 * @example
 * fencedBlocks("<!-- sample-context: declare const x: number; -->\n```ts\nx + 1;\n```\n", "docs/a.md")
 * // [{ page: "docs/a.md", line: 2, lang: "ts", code: "x + 1;\n", context: "declare const x: number;" }]
 */
export function fencedBlocks(markdown: string, page: string): DocBlock[] {
  const lines = markdown.split("\n");
  const comments = commentsOf(markdown);
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = "", fence = "", lang = ""] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence) && lines[end]!.trim().replace(/[`~]/g, "") === "")) end++;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join("\n");
    const block: DocBlock = { page, line: i + 1, lang: lang.toLowerCase(), code: `${code}\n` };
    for (const comment of attachedComments(comments, i + 1)) applyDirective(block, comment.text);
    blocks.push(block);
    i = end;
  }
  return blocks;
}
