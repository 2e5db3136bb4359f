/**
 * One cleanup list per test: what a test opened (clients, servers, sessions, processes) is closed in afterEach,
 * last opened first closed, even when some closes fail.
 */
export class Cleanup {
  private readonly steps: Array<() => unknown> = [];

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step();
      } catch {
        // A client whose session already ended may fail to close; the next step still runs.
      }
    }
  }
}
