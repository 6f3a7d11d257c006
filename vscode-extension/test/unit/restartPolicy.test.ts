import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../src/restartPolicy';

describe('RestartPolicy', () => {
  it('does not restart a server that never came up, and only logs why', () => {
    const decision = new RestartPolicy().closed(false);
    expect(decision).toMatchObject({ restart: false, notify: false });
    if (!decision.restart) expect(decision.message).toContain('accy.server.arguments');
  });

  it('restarts a crashed server up to the limit, then says so once', () => {
    let time = 0;
    const policy = new RestartPolicy(3, 60_000, () => time);
    for (let i = 0; i < 3; ++i) {
      time += 1000;
      expect(policy.closed(true)).toMatchObject({ restart: true });
    }
    time += 1000;
    expect(policy.closed(true)).toMatchObject({
      restart: false,
      notify: true,
      message: expect.stringContaining('4 times within 1 minute and'),
    });
  });

  it('forgets crashes older than the window', () => {
    let time = 0;
    const policy = new RestartPolicy(2, 60_000, () => time);
    expect(policy.closed(true).restart).toBe(true);
    time = 30_000;
    expect(policy.closed(true).restart).toBe(true);
    time = 61_000; // the first crash has left the window
    expect(policy.closed(true).restart).toBe(true);
    time = 62_000;
    expect(policy.closed(true).restart).toBe(false);
  });
});
