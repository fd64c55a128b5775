// quickjs-wasi's official JavaScript wrapper: the same quickjs.wasm as the
// Go engine, so these are the metrics of the same names in bench/metrics.go.
//
// VMs get the settings the Go engine gives its cells: a 64 MiB heap limit, a
// 512 KiB stack limit, an interrupt handler (that never interrupts) and UTC.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cell, EVAL_SMALL_JS, HOST_CALLS } from '../cells.mjs';

export const pkg = 'quickjs-wasi';

// The suspended VM of snapshot and restore: two host requests in flight.
const TWO_TICKETS = `globalThis.__done = (async () => {\n${cell('two_tickets.js')}\n})();`;
// The template of template_start: 200 tool objects.
const TOOLS200 = cell('tools200.js');

// load imports the installed wrapper and compiles the module once, as the
// wrapper's README advises: every create and restore below instantiates that
// compiled module, as the Go engine instantiates its own.
export async function load(req) {
  const { QuickJS } = await import(pathToFileURL(req.resolve('quickjs-wasi')).href);
  const options = {
    wasm: await WebAssembly.compile(readFileSync(req.resolve('quickjs-wasi/quickjs.wasm'))),
    memoryLimit: 64 << 20,
    maxStackSize: 512 << 10,
    interruptHandler: () => false,
    timezoneOffset: 0,
  };

  // A host that records nothing: host functions read their string arguments
  // (as the Go host does) and return undefined, or a fresh promise.
  const hostFunctions = (vm, state) => ({
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
  });

  const newVM = async (state = { pending: [] }) => {
    const vm = await QuickJS.create(options);
    for (const [name, fn] of Object.entries(hostFunctions(vm, state))) {
      const h = vm.newFunction(name, fn);
      vm.setProp(vm.global, name, h);
      h.dispose();
    }
    return vm;
  };

  const restoreVM = async (bytes, state = { pending: [] }) => {
    const vm = await QuickJS.restore(QuickJS.deserializeSnapshot(bytes), options);
    for (const [name, fn] of Object.entries(hostFunctions(vm, state))) vm.registerHostCallback(name, fn);
    return vm;
  };

  // suspended returns a VM whose guest waits on two host requests.
  const suspended = async () => {
    const state = { pending: [] };
    const vm = await newVM(state);
    vm.evalCode(TWO_TICKETS).dispose();
    vm.executePendingJobs();
    if (state.pending.length !== 2) throw new Error('snapshot: want two pending requests');
    return vm;
  };

  // checkRestore proves the snapshot restores into a usable VM: the guest's
  // pending run is there and host callbacks answer again. (The original
  // Deferreds' resolvers are closures of the old VM, so the run itself cannot
  // be resumed from here; the Go benchmark does resume it.)
  const checkRestore = async (bytes) => {
    const state = { pending: [] };
    const vm = await restoreVM(bytes, state);
    const h = vm.evalCode('(__done instanceof Promise) && (hostRequest("third", "{}") instanceof Promise)');
    const ok = h.toString() === 'true' && state.pending.length === 1;
    h.dispose();
    vm.dispose();
    if (!ok) throw new Error('restore: the restored VM is not usable');
  };

  // Each metric returns { op, perOp?, bytes?, close? }; op may be async.
  const metrics = {
    async cell_start() {
      return { op: async () => (await QuickJS.create(options)).dispose() };
    },
    async eval_small() {
      const vm = await newVM();
      return {
        op: () => {
          const h = vm.evalCode(EVAL_SMALL_JS);
          if (h.toNumber() !== 4950) throw new Error('eval_small: wrong result');
          h.dispose();
        },
        close: () => vm.dispose(),
      };
    },
    async host_call() {
      const vm = await newVM();
      const code = `{ for (let i = 0; i < ${HOST_CALLS}; i++) hostEmit("text", "x"); }`;
      return { op: () => vm.evalCode(code).dispose(), perOp: HOST_CALLS, close: () => vm.dispose() };
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
      return { op: async () => (await restoreVM(bytes)).dispose(), bytes: () => bytes.length };
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
      return { op: async () => (await restoreVM(bytes)).dispose(), bytes: () => bytes.length };
    },
  };
  return metrics;
}
