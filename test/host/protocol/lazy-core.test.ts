// A legacy session's server reads its core through a function so a list change can rebind it to the new build
// (docs/design.md §8). The view it reads must carry every field of the core — a field added to ProtocolCore is never
// dropped — while its tables are always the current build's.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lazyCore, type ProtocolCore } from "../../../src/host/protocol/sdk-server.js";

function core(label: string): ProtocolCore {
  // Every field present, optional ones too, each a distinct value; `extra` stands for a field added later.
  return {
    name: `name-${label}`,
    version: `v-${label}`,
    instructions: `instructions-${label}`,
    tables: { label } as unknown as ProtocolCore["tables"],
    logger: { label } as unknown as ProtocolCore["logger"],
    toolTimeoutMs: 1234,
    clock: { label } as unknown as ProtocolCore["clock"],
    requestState: { label } as unknown as ProtocolCore["requestState"],
    activity: { label } as unknown as NonNullable<ProtocolCore["activity"]>,
    toolGate: { label } as unknown as NonNullable<ProtocolCore["toolGate"]>,
    observer: { label } as unknown as NonNullable<ProtocolCore["observer"]>,
    extra: `extra-${label}`,
  } as ProtocolCore;
}

describe("lazyCore", () => {
  it("carries every field of the first core, and reads the tables of the current one", () => {
    const first = core("first");
    let current = first;
    const view = lazyCore(() => current);
    for (const key of Object.keys(first) as (keyof ProtocolCore)[]) assert.equal(view[key], first[key], key);
    current = core("second");
    assert.equal(view.tables, current.tables);
    assert.equal(view.name, "name-first");
    assert.equal((view as unknown as { extra: string }).extra, "extra-first");
  });
});
