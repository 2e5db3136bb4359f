/**
 * The `test://` resources the suite reads: a text resource, a binary one, a template with a variable, and a
 * resource clients may subscribe to. `watchedResource` keeps the body of the watched resource, which changes
 * only when the `test_update_watched_resource` tool says so (then subscribers are told).
 * Scenarios: resources-list, -read-text, -read-binary, -templates-read, -subscribe, -unsubscribe.
 */
import type { ResourceSpec, ResourceTemplateSpec } from "mcp-host";
import { STATIC_BINARY_URI, STATIC_TEXT_URI, TEMPLATE_URI, TEST_IMAGE_BASE64, WATCHED_URI } from "./fixtures.js";

/** The body of `test://watched-resource`; one per extension instance. */
export interface WatchedResource {
  text: string;
  revision: number;
}

export function staticResources(watched: WatchedResource): ResourceSpec[] {
  return [
    {
      uri: STATIC_TEXT_URI,
      name: "static-text",
      title: "Static Text Resource",
      description: "A static text resource for testing.",
      mimeType: "text/plain",
      read: () => ({ contents: [{ uri: STATIC_TEXT_URI, mimeType: "text/plain", text: "This is the content of the static text resource." }] }),
    },
    {
      uri: STATIC_BINARY_URI,
      name: "static-binary",
      title: "Static Binary Resource",
      description: "A static binary resource (a 1×1 PNG) for testing.",
      mimeType: "image/png",
      read: () => ({ contents: [{ uri: STATIC_BINARY_URI, mimeType: "image/png", blob: TEST_IMAGE_BASE64 }] }),
    },
    {
      uri: WATCHED_URI,
      name: "watched-resource",
      title: "Watched Resource",
      description: "A resource clients can subscribe to; the tool test_update_watched_resource changes it.",
      mimeType: "text/plain",
      read: () => ({ contents: [{ uri: WATCHED_URI, mimeType: "text/plain", text: watched.text }] }),
    },
  ];
}

export const dataTemplate: ResourceTemplateSpec = {
  uriTemplate: TEMPLATE_URI,
  name: "template",
  title: "Resource Template",
  description: "A resource template with parameter substitution: test://template/{id}/data.",
  mimeType: "application/json",
  complete: { id: (value) => ["1", "2", "3", "123"].filter((id) => id.startsWith(value)) },
  read: (uri, variables) => {
    const id = Array.isArray(variables.id) ? variables.id.join(",") : variables.id;
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
  },
};
