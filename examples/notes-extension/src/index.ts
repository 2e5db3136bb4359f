// A notes extension for mcp-host: the worked example of docs/extensions.md (kept in step with it by a test).
import { defineExtension, defineTool, resourceNotFound, type ExtensionContext } from "mcp-host";
import * as z from "zod";

interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

const notes = new Map<string, Note>();
let context: ExtensionContext | undefined;

const noteSchema = z.object({ id: z.string(), title: z.string(), body: z.string(), tags: z.array(z.string()) });

export default defineExtension({
  name: "notes",
  version: "0.1.0",
  toolsets: [
    {
      name: "notes",
      title: "Notes",
      description: "Write, find and read short notes.",
      instructions: "Search notes before adding one, so you do not store the same thing twice.",
    },
  ],
  tools: [
    defineTool({
      name: "add_note",
      title: "Add a note",
      description: "Stores a note and returns its id.",
      inputSchema: z.object({
        title: z.string().min(1).describe("A short title"),
        body: z.string().describe("The text of the note"),
        tags: z.array(z.string()).default([]),
      }),
      outputSchema: noteSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      handler: ({ title, body, tags }) => {
        const note: Note = { id: `n${notes.size + 1}`, title, body, tags };
        notes.set(note.id, note);
        context?.resourceUpdated(`notes://${note.id}`);
        return { content: [{ type: "text", text: `Saved note ${note.id}` }], structuredContent: { ...note } };
      },
    }),
    defineTool({
      name: "find_notes",
      title: "Find notes",
      description: "Finds notes whose title, body or tags contain the text (case-insensitive).",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "What to look for" } },
        required: ["text"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: async (args, ctx) => {
        const text = String(args.text).toLowerCase();
        const found = [...notes.values()].filter((n) => [n.title, n.body, ...n.tags].some((s) => s.toLowerCase().includes(text)));
        await ctx.progress(1, 1, `searched ${notes.size} notes`);
        const lines = found.map((n) => `${n.id}: ${n.title}`);
        return { content: [{ type: "text", text: lines.length > 0 ? lines.join("\n") : `No note mentions "${args.text}".` }] };
      },
    }),
  ],
  resourceTemplates: [
    {
      uriTemplate: "notes://{id}",
      name: "note",
      title: "A note",
      mimeType: "text/markdown",
      list: () => [...notes.values()].map((n) => ({ uri: `notes://${n.id}`, name: n.title, mimeType: "text/markdown" })),
      complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
      read: (uri, { id }) => {
        const note = notes.get(String(id));
        if (!note) throw resourceNotFound(uri, `There is no note "${String(id)}"; list the notes:// resources to see the ids.`);
        return { contents: [{ uri, mimeType: "text/markdown", text: `# ${note.title}\n\n${note.body}` }] };
      },
    },
  ],
  prompts: [
    {
      name: "summarize_notes",
      title: "Summarize notes",
      description: "Asks the model to summarize every note with a tag.",
      arguments: [{ name: "tag", description: "Only notes with this tag", required: true }],
      complete: { tag: (value) => [...new Set([...notes.values()].flatMap((n) => n.tags))].filter((t) => t.startsWith(value)).sort() },
      get: ({ tag }) => {
        const tagged = [...notes.values()].filter((n) => n.tags.includes(tag ?? ""));
        const text = tagged.map((n) => `- ${n.title}: ${n.body}`).join("\n") || "(no notes with that tag)";
        return { messages: [{ role: "user", content: { type: "text", text: `Summarize these notes tagged "${tag}":\n${text}` } }] };
      },
    },
  ],
  setup(ctx) {
    context = ctx;
    const seed = ctx.options.welcome;
    if (typeof seed === "string") notes.set("n0", { id: "n0", title: "Welcome", body: seed, tags: ["intro"] });
    ctx.logger.info(`notes ready with ${notes.size} note(s)`);
  },
  dispose() {
    notes.clear();
    context = undefined;
  },
});
