/**
 * Intl.Segmenter over a long text in linear time. On Node 20 (V8 11.3) each step of a segment iterator costs time
 * in proportion to the whole string it walks, so one pass over a 100,000-character text takes ~20 s and gigabytes
 * of garbage. Walking windows of a few thousand characters instead keeps each step cheap. A window is cut where the
 * Unicode rules (UAX #29) give the same boundary whatever follows: after a line break (a hard break for graphemes,
 * words and sentences alike), else at a boundary the caller accepts with enough text after it to have decided it.
 */

/** Code units per window: small enough that a step is cheap, large enough that few windows are cut mid-line. */
export const WINDOW = 2048;
/** Text kept after a cut so that the rules' look-ahead is decided inside the window. */
const LOOKAHEAD = 64;
/** A window with at most this many segments and no cut is doubled: re-segmenting it costs little. */
const FEW = 4;

/** The index just after the last line break in text[from, to), or -1: LF, or a CR not followed by LF. */
function afterLastLineBreak(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) {
    const code = text.charCodeAt(i);
    if (code === 10) return i + 1;
    // A CR at the window's end is only a break when the text's next unit is not LF (CR LF is one break).
    if (code === 13 && text.charCodeAt(i + 1) !== 10) return i + 1;
  }
  return -1;
}

/**
 * Where to cut a window that has no line break: the last boundary at least LOOKAHEAD before its end that `accept`
 * takes (given the segments before and after it), else any such boundary (`accepted: false`), else none (-1).
 */
function cutIndex(pieces: readonly Intl.SegmentData[], length: number, accept: (before: string, after: string) => boolean): { at: number; accepted: boolean } {
  let fallback = -1;
  for (let k = pieces.length - 1; k >= 1; k--) {
    if (pieces[k]!.index > length - LOOKAHEAD) continue;
    if (accept(pieces[k - 1]!.segment, pieces[k]!.segment)) return { at: k, accepted: true };
    if (fallback < 0) fallback = k;
  }
  return { at: fallback, accepted: false };
}

/**
 * Calls `visit` with every segment of `text` (and, for words, whether it is word-like), in order, as `segmenter`
 * gives them for the whole text — exactly so wherever the text has a line break at least every WINDOW code units
 * or a boundary `accept` takes; a window with (nearly) no boundary at all (one long sentence or "word") is doubled,
 * cheaply since it has few segments, until one comes or the text ends. Only a long line whose every boundary
 * `accept` refuses may be cut at another boundary (CJK words in a line of thousands of characters).
 * @example
 * forEachSegment(text, new Intl.Segmenter("en", { granularity: "word" }), (segment, isWordLike) => {}, (before) => /^\s+$/.test(before));
 */
export function forEachSegment(
  text: string,
  segmenter: Intl.Segmenter,
  visit: (segment: string, isWordLike: boolean | undefined) => void,
  accept: (before: string, after: string) => boolean,
): void {
  let start = 0;
  let size = WINDOW;
  while (start < text.length) {
    const end = Math.min(start + size, text.length);
    const lineEnd = end === text.length ? end : afterLastLineBreak(text, start, end);
    if (lineEnd > start) {
      for (const s of segmenter.segment(text.slice(start, lineEnd))) visit(s.segment, s.isWordLike);
      start = lineEnd;
      size = WINDOW;
      continue;
    }
    const pieces = [...segmenter.segment(text.slice(start, end))];
    const cut = cutIndex(pieces, end - start, accept);
    if (!cut.accepted && pieces.length <= FEW) {
      size *= 2;
      continue;
    }
    const stop = cut.at < 0 ? pieces.length : cut.at;
    for (let k = 0; k < stop; k++) visit(pieces[k]!.segment, pieces[k]!.isWordLike);
    start = stop < pieces.length ? start + pieces[stop]!.index : end;
    size = WINDOW;
  }
}
