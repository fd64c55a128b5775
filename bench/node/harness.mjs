#!/usr/bin/env node
// The Node side of `make bench-compare`: the operations of the Go benchmarks
// in bench/, done by a peer installed by `make bench-node` into
// .cache/bench-node. Each peer is a module of peers/:
//
//   quickjs-wasi        the official wrapper of the same quickjs.wasm
//   @pydantic/monty     a sandboxed Python interpreter that snapshots at external calls
//   quickjs-emscripten  the most used QuickJS build for Node
//
// Usage:
//   node bench/node/harness.mjs --pkg .cache/bench-node [--peer quickjs-wasi] [--metrics a,b]
//        [--time 300] [--warmup 1000] [--smoke]
//   node bench/node/harness.mjs --list     # every peer and metric, "peer metric" per line
//
// It prints one JSON object per metric and line:
//   {"peer":"quickjs-wasi","version":"3.7.0","metric":"snapshot","ns":1027830.4,"iterations":278,"bytes":1376280}
// ns is per operation (per host call for host_call). --time is the timed
// batch's budget in ms; --warmup the warm-up before it (default a third of
// --time; V8 compiles wasm with its baseline tier first and optimizes hot
// functions in the background, which takes about a second here). --smoke
// runs every metric of the peer once only, to check that the harness works.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as quickjsWasi from './peers/quickjs-wasi.mjs';
import * as monty from './peers/monty.mjs';
import * as quickjsEmscripten from './peers/quickjs-emscripten.mjs';

// The peers by the names bench/metrics.go gives them.
const peers = { 'quickjs-wasi': quickjsWasi, monty, 'quickjs-emscripten': quickjsEmscripten };

// Metric names per peer, for --list without loading any package.
const metricNames = {
  'quickjs-wasi': ['cell_start', 'eval_small', 'host_call', 'host_round_trip', 'snapshot', 'restore', 'template_start'],
  monty: ['cell', 'snapshot', 'restore'],
  'quickjs-emscripten': ['eval_live', 'new_context_eval', 'host_call'],
};

const args = parseArgs(process.argv.slice(2));

async function measure(m, name, timeMs, warmupMs, smoke) {
  const perOp = m.perOp ?? 1;
  const isAsync = m.op.constructor.name === 'AsyncFunction';
  const runFor = async (n) => {
    const t0 = process.hrtime.bigint();
    if (isAsync) for (let i = 0; i < n; i++) await m.op();
    else for (let i = 0; i < n; i++) m.op();
    return Number(process.hrtime.bigint() - t0);
  };
  // Warm up (lazy wasm compilation and tier-up, inline caches) for at
  // least three operations and the warm-up time. Then grow the batch
  // as go test grows b.N (predict from the last batch, at most 100x) until
  // one batch fills the budget, and report that batch.
  const budget = timeMs * 1e6;
  const warmup = (warmupMs ?? timeMs / 3) * 1e6;
  let n = 1;
  let ns = await runFor(1);
  if (!smoke) {
    let warm = 1;
    let spent = ns;
    while (warm < 3 || spent < warmup) {
      spent += await runFor(1);
      warm++;
    }
    for (;;) {
      ns = await runFor(n);
      if (ns >= budget || n >= 1e9) break;
      const next = ns > 0 ? Math.ceil((n * budget * 1.2) / ns) : n * 100;
      n = Math.min(Math.max(next, n + 1), n * 100);
    }
  }
  const out = { metric: name, ns: ns / (n * perOp), iterations: n };
  if (m.bytes) out.bytes = m.bytes();
  if (m.close) m.close();
  return out;
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--smoke') out.smoke = true;
    else if (a === '--list') out.list = true;
    else if (a.startsWith('--')) out[a.slice(2)] = argv[++i];
  }
  return out;
}

function fail(msg) {
  console.error(msg);
  process.exit(2);
}

if (args.list) {
  for (const [peer, names] of Object.entries(metricNames)) for (const n of names) console.log(`${peer} ${n}`);
} else {
  const peerName = args.peer ?? 'quickjs-wasi';
  const peer = peers[peerName] ?? fail(`unknown peer ${peerName}; known: ${Object.keys(peers).join(', ')}`);
  const names = args.metrics ? args.metrics.split(',') : metricNames[peerName];
  for (const n of names) {
    if (!metricNames[peerName].includes(n)) fail(`unknown metric ${n} of ${peerName}; known: ${metricNames[peerName].join(', ')}`);
  }
  const pkgDir = resolve(args.pkg ?? '.cache/bench-node');
  const req = createRequire(resolve(pkgDir, 'package.json'));
  let version;
  try {
    // Read directly: not every package exports its package.json.
    ({ version } = JSON.parse(readFileSync(resolve(pkgDir, 'node_modules', peer.pkg, 'package.json'), 'utf8')));
  } catch {
    fail(`${peer.pkg} is not installed in ${pkgDir}: run make bench-node`);
  }
  const metrics = await peer.load(req);
  if (Object.keys(metrics).join() !== metricNames[peerName].join()) fail(`harness: ${peerName}'s metrics are not listed in metricNames`);
  console.error(`${peer.pkg}@${version} on Node ${process.version}`);
  const time = Number(args.time ?? 300);
  const warmup = args.warmup === undefined ? undefined : Number(args.warmup);
  for (const n of names) {
    const out = await measure(await metrics[n](), n, time, warmup, !!args.smoke);
    console.log(JSON.stringify({ peer: peerName, version, ...out }));
  }
}
