/**
 * A line diff (Myers' O(ND) algorithm) printed in unified format, the form `diff -u` and `git diff` use and
 * models read well. The common prefix and suffix are trimmed first; past an edit budget the middle is reported
 * as replaced wholesale, so a huge unrelated pair costs bounded time and still gives a correct (if not minimal) diff.
 */

export type Edit = { op: "=" | "-" | "+"; a: number; b: number };

const EDIT_BUDGET = 2000;

/** The edit script turning `a` into `b`, compared by key. `a`/`b` fields are the line indexes each edit reads. */
export function diffKeys(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB)) ?? replaceAll(endA - start, endB - start);
  const edits: Edit[] = [];
  for (let i = 0; i < start; i++) edits.push({ op: "=", a: i, b: i });
  for (const edit of middle) edits.push({ op: edit.op, a: edit.a + start, b: edit.b + start });
  for (let i = 0; i < a.length - endA; i++) edits.push({ op: "=", a: endA + i, b: endB + i });
  return edits;
}

function replaceAll(n: number, m: number): Edit[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({ op: "-" as const, a: i, b: 0 })),
    ...Array.from({ length: m }, (_, j) => ({ op: "+" as const, a: n, b: j })),
  ];
}

function myers(a: readonly string[], b: readonly string[]): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, EDIT_BUDGET); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const at = (k: number) => v[k + d + 1];
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      edits.push({ op: "=", a: x, b: y });
    }
    if (d > 0) {
      if (x === previousX) edits.push({ op: "+", a: x, b: y - 1 });
      else edits.push({ op: "-", a: x - 1, b: y });
    }
    x = previousX;
    y = previousY;
  }
  return edits.reverse();
}

/** A text split into lines, remembering whether its last line lacks a newline (diff marks that). */
export interface Lines {
  lines: string[];
  missingFinalNewline: boolean;
}

export function splitLines(text: string): Lines {
  if (text === "") return { lines: [], missingFinalNewline: false };
  const lines = text.split(/\r?\n/);
  const missingFinalNewline = lines.at(-1) !== "";
  if (!missingFinalNewline) lines.pop();
  return { lines, missingFinalNewline };
}

export interface UnifiedDiff {
  identical: boolean;
  added: number;
  removed: number;
  hunks: number;
  diff: string;
}

const NO_NEWLINE = "\\ No newline at end of file";

/**
 * @example
 * unifiedDiff("a\nb\n", "a\nc\n", { context: 3 }).diff // "--- before\n+++ after\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 */
export function unifiedDiff(
  before: string,
  after: string,
  options: { context?: number; beforeLabel?: string; afterLabel?: string; ignoreWhitespace?: boolean } = {},
): UnifiedDiff {
  const context = options.context ?? 3;
  const a = splitLines(before);
  const b = splitLines(after);
  const key = (side: Lines) => (line: string, i: number) => {
    const body = options.ignoreWhitespace ? line.trim().replace(/\s+/g, " ") : line;
    return side.missingFinalNewline && i === side.lines.length - 1 ? `${body}\n\0` : body;
  };
  const edits = diffKeys(a.lines.map(key(a)), b.lines.map(key(b)));
  const changes = edits.map((edit, i) => (edit.op === "=" ? -1 : i)).filter((i) => i >= 0);
  const added = edits.filter((edit) => edit.op === "+").length;
  const removed = edits.filter((edit) => edit.op === "-").length;
  if (changes.length === 0) return { identical: true, added: 0, removed: 0, hunks: 0, diff: "" };
  const groups: Array<[number, number]> = [];
  for (const index of changes) {
    const last = groups.at(-1);
    if (last !== undefined && index - last[1] <= 2 * context + 1) last[1] = index;
    else groups.push([index, index]);
  }
  const out = [`--- ${options.beforeLabel ?? "before"}`, `+++ ${options.afterLabel ?? "after"}`];
  for (const [first, last] of groups) out.push(...hunk(edits.slice(Math.max(0, first - context), Math.min(edits.length, last + context + 1)), a, b));
  return { identical: false, added, removed, hunks: groups.length, diff: `${out.join("\n")}\n` };
}

function hunk(edits: Edit[], a: Lines, b: Lines): string[] {
  const oldCount = edits.filter((edit) => edit.op !== "+").length;
  const newCount = edits.filter((edit) => edit.op !== "-").length;
  const range = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);
  const lines = [`@@ -${range(edits[0].a, oldCount)} +${range(edits[0].b, newCount)} @@`];
  for (const edit of edits) {
    const fromA = edit.op !== "+";
    const side = fromA ? a : b;
    const index = fromA ? edit.a : edit.b;
    lines.push(`${edit.op === "=" ? " " : edit.op}${side.lines[index]}`);
    if (index === side.lines.length - 1 && side.missingFinalNewline) lines.push(NO_NEWLINE);
  }
  return lines;
}
