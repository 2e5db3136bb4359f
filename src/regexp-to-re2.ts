/**
 * An ECMAScript pattern, read as JSON Schema and ajv read it (the `u` grammar), rewritten in RE2's syntax with the
 * same meaning, so a linear-time engine can run it (docs/design.md §16). RE2 and JavaScript agree on most syntax;
 * where they differ this spells JavaScript's meaning out: `.` (which never matches \r, U+2028, U+2029), `\s` and `\S`
 * (JavaScript's are Unicode white space, RE2's ASCII), `[\b]`, the empty classes `[]` and `[^]`, `[` inside a class
 * (RE2 would read `[:alpha:]`), `\u` escapes and surrogate pairs. What no linear engine can run — lookaround,
 * backreferences — is refused with the reason. The input must already be a valid `u` pattern.
 */

/** What JavaScript's `\s` matches, as RE2 class members. */
const WHITE_SPACE = "\\t\\n\\v\\f\\r\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** Everything else (JavaScript's `\S`), as ranges, so it also works inside a class. */
const NOT_WHITE_SPACE =
  "\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";
const ANY = "\\x{0}-\\x{10FFFF}";
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/** JavaScript's long General_Category names, which RE2 knows by their short ones only. */
const CATEGORY: Record<string, string> = {
  Letter: "L",
  Cased_Letter: "LC",
  Uppercase_Letter: "Lu",
  Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Mark: "M",
  Combining_Mark: "M",
  Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps",
  Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi",
  Final_Punctuation: "Pf",
  Other_Punctuation: "Po",
  Symbol: "S",
  Math_Symbol: "Sm",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Other_Symbol: "So",
  Separator: "Z",
  Space_Separator: "Zs",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Surrogate: "Cs",
  Private_Use: "Co",
  Unassigned: "Cn",
};

/** A pattern no linear-time engine can run, and why (said so a person can fix the schema). */
export class UnrunnablePatternError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "UnrunnablePatternError";
  }
}

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Walks one `u` pattern, writing its RE2 form. */
class Rewriter {
  private at = 0;
  private out = "";

  constructor(private readonly pattern: string) {}

  run(): string {
    while (this.at < this.pattern.length) {
      const c = this.pattern[this.at]!;
      if (c === "\\") this.out += this.escape(false);
      else if (c === "[") this.out += this.charClass();
      else if (c === "(") this.out += this.group();
      else if (c === ".") {
        this.out += DOT;
        this.at += 1;
      } else this.out += this.literal();
    }
    return this.out;
  }

  /** A literal code point: ASCII as it is (the metacharacters are the same in both), the rest as `\x{…}`. */
  private literal(): string {
    const code = this.pattern.codePointAt(this.at)!;
    this.at += code > 0xffff ? 2 : 1;
    return code < 0x80 ? String.fromCharCode(code) : hex(code);
  }

  private group(): string {
    const rest = this.pattern.slice(this.at, this.at + 4);
    if (rest.startsWith("(?=") || rest.startsWith("(?!")) throw new UnrunnablePatternError(`it uses a lookahead ("${rest.slice(0, 3)}")`);
    if (rest.startsWith("(?<=") || rest.startsWith("(?<!")) throw new UnrunnablePatternError(`it uses a lookbehind ("${rest}")`);
    if (rest.startsWith("(?<")) {
      // A named group: captures mean nothing to a test, so it becomes a plain group (RE2 names are narrower).
      this.at = this.pattern.indexOf(">", this.at) + 1;
      return "(?:";
    }
    if (rest.startsWith("(?:")) {
      this.at += 3;
      return "(?:";
    }
    this.at += 1;
    return "(";
  }

  private charClass(): string {
    this.at += 1;
    const negated = this.pattern[this.at] === "^";
    if (negated) this.at += 1;
    if (this.pattern[this.at] === "]") {
      this.at += 1;
      return negated ? `[${ANY}]` : `[^${ANY}]`; // JavaScript's [^] is any character, [] none
    }
    let body = "";
    while (this.pattern[this.at] !== "]") {
      const c = this.pattern[this.at]!;
      if (c === "\\") body += this.escape(true);
      else if (c === "[" || c === "^") {
        body += `\\${c}`;
        this.at += 1;
      } else body += this.literal();
    }
    this.at += 1;
    return `[${negated ? "^" : ""}${body}]`;
  }

  /** One escape, at `\`; `inClass` where it is a class member. */
  private escape(inClass: boolean): string {
    const c = this.pattern[this.at + 1]!;
    this.at += 2;
    switch (c) {
      case "d":
      case "D":
      case "w":
      case "W":
      case "t":
      case "n":
      case "v":
      case "f":
      case "r":
        return `\\${c}`;
      case "b":
        return inClass ? hex(8) : "\\b";
      case "B":
        return "\\B";
      case "s":
        return inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      case "S":
        return inClass ? NOT_WHITE_SPACE : `[${NOT_WHITE_SPACE}]`;
      case "0":
        return hex(0);
      case "c":
        this.at += 1;
        return hex(this.pattern.charCodeAt(this.at - 1) % 32);
      case "x":
        this.at += 2;
        return hex(Number.parseInt(this.pattern.slice(this.at - 2, this.at), 16));
      case "u":
        return this.unicodeEscape();
      case "p":
      case "P":
        return this.property(c);
      case "k":
        throw new UnrunnablePatternError("it uses a backreference (\\k<…>)");
      default:
        if (c >= "1" && c <= "9") throw new UnrunnablePatternError(`it uses a backreference (\\${c})`);
        return `\\${c}`; // a syntax character (or "-" in a class), escaped in RE2 as in JavaScript
    }
  }

  /** `\uXXXX` (a surrogate pair of them is one code point, as under `u`) or `\u{X…}`. */
  private unicodeEscape(): string {
    if (this.pattern[this.at] === "{") {
      const end = this.pattern.indexOf("}", this.at);
      const code = Number.parseInt(this.pattern.slice(this.at + 1, end), 16);
      this.at = end + 1;
      return hex(code);
    }
    const code = Number.parseInt(this.pattern.slice(this.at, this.at + 4), 16);
    this.at += 4;
    if (isHigh(code) && this.pattern.startsWith("\\u", this.at)) {
      const low = Number.parseInt(this.pattern.slice(this.at + 2, this.at + 6), 16);
      if (isLow(low)) {
        this.at += 6;
        return hex(0x10000 + (code - 0xd800) * 0x400 + (low - 0xdc00));
      }
    }
    return hex(code);
  }

  /** `\p{…}`: RE2 knows General_Category values (by short name) and scripts (by name); anything else it refuses. */
  private property(kind: "p" | "P"): string {
    const end = this.pattern.indexOf("}", this.at);
    const inner = this.pattern.slice(this.at + 1, end);
    this.at = end + 1;
    const [key, value] = inner.includes("=") ? (inner.split("=") as [string, string]) : [undefined, inner];
    if (key === "Script_Extensions" || key === "scx") throw new UnrunnablePatternError(`it uses \\${kind}{${inner}}, which RE2 does not support`);
    return `\\${kind}{${CATEGORY[value] ?? value}}`;
  }
}

/**
 * The RE2 form of a JavaScript `u` pattern; `caseless` for the `i` flag. Throws UnrunnablePatternError for what
 * only a backtracking engine can run.
 * @example
 * toRe2Syntax("^\\s*(?<word>\\w+)$") // "^[\\t\\n…]*(?:\\w+)$"
 */
export function toRe2Syntax(pattern: string, caseless = false): string {
  const body = new Rewriter(pattern).run();
  return caseless ? `(?i)${body}` : body;
}
