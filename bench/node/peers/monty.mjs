// @pydantic/monty: a sandboxed Python interpreter (Rust, a native Node
// addon) that pauses at every external call and can dump the paused run.
// It runs Python, so its cells are the Python twins in cells/*.py.
//
// Runs get a 64 MiB memory limit and a 30 s duration limit, like the Go
// engine's cells; print goes to a callback that drops it, as hostEmit does.
import { pathToFileURL } from 'node:url';
import { cell } from '../cells.mjs';

export const pkg = '@pydantic/monty';

const EVAL_SMALL = cell('eval_small.py');
const TWO_TICKETS = cell('two_tickets.py');

export async function load(req) {
  const { Monty, MontySnapshot, MontyComplete } = await import(pathToFileURL(req.resolve('@pydantic/monty')).href);
  const limits = { maxMemory: 64 << 20, maxDurationSecs: 30 };
  const printCallback = (stream, text) => void text.length;

  // suspended returns the two-ticket run paused at its first request.
  const suspended = () => {
    const p = new Monty(TWO_TICKETS).start({ limits, printCallback });
    if (!(p instanceof MontySnapshot) || p.functionName !== 'request' || p.args[0] !== 'first') {
      throw new Error('snapshot: want a run paused at request("first")');
    }
    return p;
  };

  // resume answers both requests of a loaded snapshot and checks the result.
  const resume = (p) => {
    p = p.resume({ returnValue: { n: 4 } });
    p = p.resume({ returnValue: { n: 2 } });
    if (!(p instanceof MontyComplete) || p.output !== 42) throw new Error('restore: the resumed run did not return 42');
  };

  const metrics = {
    // cell: a whole small cell, parse and run (Go: eval_small).
    async cell() {
      return {
        op: () => {
          if (new Monty(EVAL_SMALL).run({ limits, printCallback }) !== 4950) throw new Error('cell: wrong result');
        },
      };
    },
    // snapshot: dump the paused run (Go: snapshot).
    async snapshot() {
      const p = suspended();
      let bytes;
      return {
        op: () => {
          bytes = p.dump();
        },
        bytes: () => bytes.length,
      };
    },
    // restore: load that dump and resume it to the end, answering both
    // requests (Go: restore_resume).
    async restore() {
      const bytes = suspended().dump();
      return {
        op: () => resume(MontySnapshot.load(bytes, { printCallback })),
        bytes: () => bytes.length,
      };
    },
  };
  return metrics;
}
