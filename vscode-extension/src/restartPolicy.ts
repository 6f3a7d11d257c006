function minutes(ms: number): string {
  const count = ms / 60_000;
  return `${count} minute${count === 1 ? '' : 's'}`;
}

/** What to do when the server process has gone away. */
export type CloseDecision =
  | { restart: true; note: string }
  | { restart: false; message: string; notify: boolean };

/**
 * When to restart accy-lsp after its process ends. A server that never
 * came up (a bad argument, a missing library) would fail the same way
 * again, so it is not restarted; one that ran is restarted after a crash,
 * but not more than `maxRestarts` times within `windowMs`, so a server that
 * keeps crashing ends in one message instead of a loop.
 */
export class RestartPolicy {
  private restarts: number[] = [];

  constructor(
    private readonly maxRestarts = 3,
    private readonly windowMs = 3 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `ran`: the server had answered `initialize` before it went away. */
  closed(ran: boolean): CloseDecision {
    if (!ran)
      return {
        restart: false,
        // The client reports the failed start itself; this goes to the log only.
        notify: false,
        message:
          'accy-lsp exited before it answered initialize; what it printed is above. ' +
          'Check accy.server.path and accy.server.arguments, then run "Accy: Restart Server".',
      };
    const time = this.now();
    this.restarts = this.restarts.filter((t) => time - t < this.windowMs);
    if (this.restarts.length >= this.maxRestarts)
      return {
        restart: false,
        notify: true,
        message:
          `accy-lsp stopped ${this.restarts.length + 1} times within ${minutes(this.windowMs)} and is ` +
          'not restarted again; see the output channel Accy Language Server. "Accy: Restart Server" starts it again.',
      };
    this.restarts.push(time);
    return {
      restart: true,
      note: `accy-lsp stopped; restarting it (${this.restarts.length} of ${this.maxRestarts} restarts allowed within ${minutes(this.windowMs)}).`,
    };
  }
}
