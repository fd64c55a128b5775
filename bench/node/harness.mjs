#!/usr/bin/env node
// The Node side of `make bench-compare`: the same operations as the Go
// benchmarks in bench/, done with the official JavaScript wrapper of
// quickjs-wasi (installed by `make bench-node` into .cache/bench-node).
//
// Usage:
//   node bench/node/harness.mjs --pkg .cache/bench-node [--metrics a,b] [--time 300] [--warmup 1000] [--smoke]
//
// It prints one JSON object per metric and line:
//   {"metric":"cell_start","ns":812345.6,"iterations":370}
//   {"metric":"snapshot","ns":...,"iterations":...,"bytes":1376280}
// ns is per operation (per host call for host_call). --time is the timed
// batch's budget in ms; --warmup the warm-up before it (default a third of
// --time; V8 compiles wasm with its baseline tier first and optimizes hot
// functions in the background, which takes about a second here). --smoke
// runs every metric once only, to check that the harness works.
//
// VMs get the settings the Go engine gives its cells: a 64 MiB heap limit, a
// 512 KiB stack limit, an interrupt handler (that never interrupts) and UTC.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = parseArgs(process.argv.slice(2));
let QuickJS, options, version;

const settings = (module) => ({
  wasm: module,
  memoryLimit: 64 << 20,
  maxStackSize: 512 << 10,
  interruptHandler: () => false,
  timezoneOffset: 0,
});

// HOST_CALLS is the loop length of host_call, as in the Go benchmark.
const HOST_CALLS = 10000;

// Guest sources shared with the Go benchmarks (bench/metrics.go embeds them).
const cell = (name) => readFileSync(new URL(`./cells/${name}`, import.meta.url), 'utf8');
// The suspended VM of snapshot and restore: two host requests in flight.
const TWO_TICKETS = `globalThis.__done = (async () => {\n${cell('two_tickets.js')}\n})();`;
// The template of template_start: 200 tool objects.
const TOOLS200 = cell('tools200.js');

// A host that records nothing: host functions read their string arguments
// (as the Go host does) and return undefined, or a fresh promise.
function hostFunctions(vm, state) {
  return {
    hostEmit(...a) {
      a[0].toString();
      a[1].toString();
      return vm.undefined;
    },
    hostRequest(...a) {
      a[0].toString();
      a[1].toString();
      const d = vm.newPromise();
      state.pending.push(d);
      return d.handle;
    },
  };
}

async function newVM(state = { pending: [] }) {
  const vm = await QuickJS.create(options);
  for (const [name, fn] of Object.entries(hostFunctions(vm, state))) {
    const h = vm.newFunction(name, fn);
    vm.setProp(vm.global, name, h);
    h.dispose();
  }
  return vm;
}

async function restoreVM(bytes, state = { pending: [] }) {
  const vm = await QuickJS.restore(QuickJS.deserializeSnapshot(bytes), options);
  for (const [name, fn] of Object.entries(hostFunctions(vm, state))) vm.registerHostCallback(name, fn);
  return vm;
}

// Each metric returns { op, perOp?, bytes?, close? }; op may be async.
const metrics = {
  async cell_start() {
    return {
      op: async () => (await QuickJS.create(options)).dispose(),
    };
  },
  async eval_small() {
    const vm = await newVM();
    const code = '{ let s = 0; for (let i = 0; i < 100; i++) s += i; s }';
    return {
      op: () => {
        const h = vm.evalCode(code);
        if (h.toNumber() !== 4950) throw new Error('eval_small: wrong result');
        h.dispose();
      },
      close: () => vm.dispose(),
    };
  },
  async host_call() {
    const vm = await newVM();
    const code = `{ for (let i = 0; i < ${HOST_CALLS}; i++) hostEmit("text", "x"); }`;
    return {
      op: () => vm.evalCode(code).dispose(),
      perOp: HOST_CALLS,
      close: () => vm.dispose(),
    };
  },
  async host_round_trip() {
    const state = { pending: [] };
    const vm = await newVM(state);
    vm.evalCode('globalThis.__n = 0; (async () => { for (;;) __n += await hostRequest("x", ""); })()').dispose();
    vm.executePendingJobs();
    const one = vm.newNumber(1);
    return {
      op: () => {
        const d = state.pending.pop();
        d.resolve(one);
        vm.executePendingJobs();
        if (state.pending.length !== 1) throw new Error('host_round_trip: no next request');
      },
      close: () => {
        one.dispose();
        vm.dispose();
      },
    };
  },
  async snapshot() {
    const vm = await suspended();
    let bytes;
    return {
      op: () => {
        bytes = QuickJS.serializeSnapshot(vm.snapshot());
      },
      bytes: () => bytes.length,
      close: () => vm.dispose(),
    };
  },
  async restore() {
    const vm = await suspended();
    const bytes = QuickJS.serializeSnapshot(vm.snapshot());
    vm.dispose();
    await checkRestore(bytes);
    return {
      op: async () => (await restoreVM(bytes)).dispose(),
      bytes: () => bytes.length,
    };
  },
  async template_start() {
    const vm = await newVM();
    vm.evalCode(TOOLS200).dispose();
    const bytes = QuickJS.serializeSnapshot(vm.snapshot());
    vm.dispose();
    const probe = await restoreVM(bytes);
    const n = probe.evalCode('Object.keys(tools).length');
    if (n.toNumber() !== 200) throw new Error('template_start: tools missing after restore');
    n.dispose();
    probe.dispose();
    return {
      op: async () => (await restoreVM(bytes)).dispose(),
      bytes: () => bytes.length,
    };
  },
};

// suspended returns a VM whose guest waits on two host requests.
async function suspended() {
  const state = { pending: [] };
  const vm = await newVM(state);
  vm.evalCode(TWO_TICKETS).dispose();
  vm.executePendingJobs();
  if (state.pending.length !== 2) throw new Error('snapshot: want two pending requests');
  return vm;
}

// checkRestore proves the snapshot restores into a usable VM: the guest's
// pending run is there and host callbacks answer again. (The original
// Deferreds' resolvers are closures of the old VM, so the run itself cannot
// be resumed from here; the Go benchmark does resume it.)
async function checkRestore(bytes) {
  const state = { pending: [] };
  const vm = await restoreVM(bytes, state);
  const h = vm.evalCode('(__done instanceof Promise) && (hostRequest("third", "{}") instanceof Promise)');
  const ok = h.toString() === 'true' && state.pending.length === 1;
  h.dispose();
  vm.dispose();
  if (!ok) throw new Error('restore: the restored VM is not usable');
}

async function measure(name, timeMs, warmupMs, smoke) {
  const m = await metrics[name]();
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

// load imports the installed wrapper and compiles the module once, as the
// wrapper's README advises: every create and restore below instantiates that
// compiled module, as the Go engine instantiates its own.
async function load() {
  const pkgDir = resolve(args.pkg ?? '.cache/bench-node');
  const req = createRequire(resolve(pkgDir, 'package.json'));
  let entry;
  try {
    entry = req.resolve('quickjs-wasi');
  } catch {
    console.error(`quickjs-wasi is not installed in ${pkgDir}: run make bench-node`);
    process.exit(2);
  }
  ({ QuickJS } = await import(pathToFileURL(entry).href));
  version = JSON.parse(readFileSync(req.resolve('quickjs-wasi/package.json'), 'utf8')).version;
  options = settings(await WebAssembly.compile(readFileSync(req.resolve('quickjs-wasi/quickjs.wasm'))));
}

if (args.list) {
  console.log(Object.keys(metrics).join('\n'));
} else {
  const names = args.metrics ? args.metrics.split(',') : Object.keys(metrics);
  for (const n of names) {
    if (!metrics[n]) {
      console.error(`unknown metric ${n}; known: ${Object.keys(metrics).join(', ')}`);
      process.exit(2);
    }
  }
  await load();
  console.error(`quickjs-wasi@${version} on Node ${process.version}`);
  for (const n of names) {
    console.log(JSON.stringify(await measure(n, Number(args.time ?? 300), args.warmup === undefined ? undefined : Number(args.warmup), !!args.smoke)));
  }
}
