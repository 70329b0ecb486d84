// client.rcon's answer rule, on a host of the test's own (a clock it moves by hand, the server's acknowledgement
// when the test says): an answer ends `quiet` ms after its last line, and a command that prints nothing ends
// `quiet` ms after the server acknowledged it, not at `timeout` (Teeworlds 0.7.5's change_map prints nothing:
// `net rcon` waited its whole 10 s --timeout). The live behaviour: test/net/live-rcon.test.ts.
import { describe, expect, it } from 'vitest';
import type { NetClock } from './client-api.js';
import { ClientRcon, type RconHost } from './rcon.js';

/** A clock whose time moves only with advance(). */
function manualClock(): NetClock & { advance(ms: number): Promise<void> } {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; every?: number; callback: () => void }>();
  const add = (callback: () => void, ms: number, every?: number) => (timers.set(++next, { at: now + ms, every, callback }), next);
  return {
    now: () => now,
    setTimeout: (callback, ms) => add(callback, ms),
    setInterval: (callback, ms) => add(callback, ms, ms),
    clearTimeout: (h) => void timers.delete(h as number),
    clearInterval: (h) => void timers.delete(h as number),
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        // Promise callbacks (an acknowledgement's then) run before the next timer, as they would.
        await Promise.resolve();
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, t] = due;
        now = t.at;
        if (t.every) t.at += t.every;
        else timers.delete(id);
        t.callback();
      }
      now = end;
      await Promise.resolve();
    },
  };
}

function host() {
  const clock = manualClock();
  const sent: { kind: string }[] = [];
  let acknowledge: () => void = () => undefined;
  const h: RconHost = {
    protocol: '0.7',
    clock,
    closeReason: undefined,
    sendMessage: (m) => void sent.push(m),
    flushed: () => new Promise<void>((resolve) => (acknowledge = resolve)),
  };
  const rcon = new ClientRcon(h);
  rcon.message({ kind: 'rcon_auth_on' } as never);
  return { rcon, clock, sent, ack: () => acknowledge(), line: (line: string) => rcon.message({ kind: 'rcon_line', line } as never) };
}

describe('client.rcon command: when an answer ends', () => {
  it('a command that prints nothing ends quiet ms after the server acknowledged it, not at the timeout', async () => {
    const { rcon, clock, sent, ack } = host();
    let answer: string[] | undefined;
    void rcon.command('change_map dm2', { quiet: 300, timeout: 10_000 }).then((lines) => (answer = lines));
    await clock.advance(0);
    expect(sent).toEqual([{ kind: 'rcon_cmd', command: 'change_map dm2' }]);
    // Not acknowledged yet (a slow link): the answer waits.
    await clock.advance(1000);
    expect(answer).toBeUndefined();
    ack();
    await clock.advance(299);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect(answer).toEqual([]);
  });

  it('lines end the answer quiet ms after the last one; the acknowledgement does not cut it short', async () => {
    const { rcon, clock, ack, line } = host();
    let answer: string[] | undefined;
    void rcon.command('status', { quiet: 300, timeout: 10_000 }).then((lines) => (answer = lines));
    await clock.advance(20);
    line('id=0 name=a');
    ack();
    await clock.advance(200);
    line('id=1 name=b');
    await clock.advance(299);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect(answer).toEqual(['id=0 name=a', 'id=1 name=b']);
  });

  it('no acknowledgement and no line: the timeout ends it with no lines', async () => {
    const { rcon, clock } = host();
    let answer: string[] | undefined;
    void rcon.command('echo', { quiet: 300, timeout: 3000 }).then((lines) => (answer = lines));
    await clock.advance(2999);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect(answer).toEqual([]);
  });
});
