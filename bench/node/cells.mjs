// Guest sources shared by the peers of the harness and with the Go
// benchmarks (bench/metrics.go embeds the files of cells/).
import { readFileSync } from 'node:fs';

export const cell = (name) => readFileSync(new URL(`./cells/${name}`, import.meta.url), 'utf8');

// HOST_CALLS is the loop length of host_call, as in the Go benchmark.
export const HOST_CALLS = 10000;

// The small cell of eval_small, as an expression (Go runs it as a cell body
// ending in `return s`).
export const EVAL_SMALL_JS = '{ let s = 0; for (let i = 0; i < 100; i++) s += i; s }';
