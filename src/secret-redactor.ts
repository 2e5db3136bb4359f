/**
 * The one redactor every output of a deployment goes through (docs/design.md §12, §18): it knows the values the
 * config's secret references resolved to, and learns the credentials the host obtains while it runs (each OAuth
 * token the gateway gets, each header an auth strategy adds), and replaces each of them — raw, JSON-escaped or
 * URL-encoded — with `<redacted>` in log lines, error messages, tool results and reports. A base module: the
 * registry, the gateway, the host and the logger all take it as an option; none of them reads the config.
 */
/**
 * What a secret is replaced with.
 * @example
 * createSecretRedactor(["sk-123456"]).redact("key sk-123456") // `key ${REDACTED}`
 */
export const REDACTED = "<redacted>";

/**
 * Secrets shorter than this are not redacted: masking every "ab" in every text would garble all output and still
 * say which letters the secret has. The config refuses a secret reference that resolves to fewer (CONFIG_SECRET_TOO_SHORT).
 * @example
 * value.length >= MIN_SECRET_LENGTH
 */
export const MIN_SECRET_LENGTH = 4;

/** Credentials learned at run time that are kept (the oldest are forgotten first): a strategy may mint one per request. */
const MAX_LEARNED = 256;

/** Removes known secrets from what is about to leave the process. */
export interface SecretRedactor {
  /**
   * Learns credentials obtained at run time (a token, a header value); shorter than MIN_SECRET_LENGTH is ignored.
   * The most recent 256 are kept besides the ones the redactor was made with.
   */
  learn(...secrets: readonly string[]): void;
  /** `text` with every known secret replaced by `<redacted>`; the same string when none occurs. */
  redact(text: string): string;
  /**
   * A copy of a JSON-like value with every string in it redacted (keys too); the value itself when nothing changed.
   * Past 64 levels a subtree is redacted as its JSON text, and replaced whole by `<redacted>` when that cannot be done.
   */
  redactValue<T>(value: T): T;
  /** True when it knows no secret at all (every call is then the identity). */
  readonly empty: boolean;
}

/** The forms a secret takes in output: as it is, inside a JSON string, URL-encoded. */
function formsOf(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, "+")];
  return [...new Set(forms)];
}

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** How deep the walk goes; a subtree below is redacted as its JSON text (it fails closed, never passes unread). */
const MAX_DEPTH = 64;

/**
 * @example
 * const redactor = createSecretRedactor(loaded.secrets);
 * redactor.learn(accessToken);
 * redactor.redact(`upstream said: bad token ${accessToken}`) // "upstream said: bad token <redacted>"
 */
export function createSecretRedactor(secrets: readonly string[] = []): SecretRedactor {
  const fixed = new Set(secrets.filter((s) => typeof s === "string" && s.length >= MIN_SECRET_LENGTH));
  const learned = new Set<string>();
  let pattern: RegExp | undefined;
  let stale = true;

  const compiled = (): RegExp | undefined => {
    if (!stale) return pattern;
    stale = false;
    const forms = [...new Set([...fixed, ...learned].flatMap(formsOf))].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    pattern = forms.length === 0 ? undefined : new RegExp(forms.map(escapeForRegExp).join("|"), "g");
    return pattern;
  };

  const redact = (text: string): string => {
    const found = compiled();
    return found === undefined || typeof text !== "string" ? text : text.replace(found, REDACTED);
  };

  /**
   * A subtree below the walk's depth, redacted as its JSON text: itself when no secret is in it, else the redacted
   * text parsed back — or the whole subtree replaced by `<redacted>` when it cannot be written as JSON (nested past
   * the stack, a cycle) or its redacted text no longer parses (a secret that spans JSON syntax).
   */
  const deepest = (value: object): unknown => {
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return REDACTED;
    }
    const redacted = redact(text);
    if (redacted === text) return value;
    try {
      return JSON.parse(redacted);
    } catch {
      return REDACTED;
    }
  };

  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return redact(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_DEPTH) return deepest(value);
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      value.forEach((item, i) => {
        const next = walk(item, depth + 1);
        if (next === item) return;
        out ??= [...value];
        out[i] = next;
      });
      return out ?? value;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value; // a Date, a Buffer, a class instance: left as it is
    let changed = false;
    const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
      const next: [string, unknown] = [redact(key), walk(item, depth + 1)];
      if (next[0] !== key || next[1] !== item) changed = true;
      return next;
    });
    return changed ? Object.fromEntries(entries) : value;
  };

  return {
    learn(...values) {
      for (const value of values) {
        if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || fixed.has(value) || learned.has(value)) continue;
        learned.add(value);
        if (learned.size > MAX_LEARNED) learned.delete(learned.values().next().value as string);
        stale = true;
      }
    },
    redact,
    redactValue: <T>(value: T): T => (compiled() === undefined ? value : (walk(value, 0) as T)),
    get empty() {
      return compiled() === undefined;
    },
  };
}
