/**
 * The `scaleOut:` section (docs/scale-out.md): many `mcp-host serve` instances behind a load balancer. Its name, the
 * fleet's Redis (shared events, rate counts and tasks), how long a task's instance holds it without renewing, and the
 * key every instance signs `requestState` with. The URL and the key are checked by the rules (scale-out-rules.ts),
 * whose messages never show them.
 */
import { z } from "zod";
import { ranged } from "./schema-parts.js";

/** What an instance may be called: it starts every 2025-era session id, read by a proxy's routing. */
export const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const scaleOutSchema = z.strictObject({
  instanceId: z.string().regex(INSTANCE_ID, { error: "must be 1 to 64 letters, digits, - and _ (it starts every session id; a dot would end it)" }).optional(),
  redis: z
    .strictObject({
      url: z.string(),
      prefix: z
        .string()
        .regex(/^[A-Za-z0-9_.:-]{1,64}$/, { error: "must be 1 to 64 letters, digits and . : - _" })
        .default("mcp-host:"),
    })
    .optional(),
  stateKey: z.string().optional(),
  // With `redis`: a running task's instance renews its lease every third of this; past it, the task is failed.
  taskLeaseMs: ranged("scaleOut.taskLeaseMs").default(30_000),
});
