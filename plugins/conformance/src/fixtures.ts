/**
 * The fixed payloads the conformance scenarios check for: a 1×1 PNG, a minimal WAV, and the URIs the suite
 * reads. They are the same bytes as the suite's reference server, so a failing check is about the host, not data.
 */

/** A 1×1 red PNG pixel, base64. */
export const TEST_IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A minimal (silent, 1-sample) WAV file, base64. */
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

export const STATIC_TEXT_URI = "test://static-text";
export const STATIC_BINARY_URI = "test://static-binary";
export const WATCHED_URI = "test://watched-resource";
export const TEMPLATE_URI = "test://template/{id}/data";

/** Resolves after `ms`, or at once when the request is cancelled (a fixture must not outlive its caller). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
