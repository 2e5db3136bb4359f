/** Annotations shared by this plugin's tools: they compute from their arguments, touching nothing outside. */
export const pureAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
