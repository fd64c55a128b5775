// quickjs-emscripten: the most used QuickJS build for Node (its default
// release-sync variant, emscripten-compiled wasm).
//
// Runtimes get the Go engine's settings: a 64 MiB memory limit, a 512 KiB
// stack limit and an interrupt handler that never interrupts.
import { pathToFileURL } from 'node:url';
import { EVAL_SMALL_JS, HOST_CALLS } from '../cells.mjs';

export const pkg = 'quickjs-emscripten';

export async function load(req) {
  const { getQuickJS } = await import(pathToFileURL(req.resolve('quickjs-emscripten')).href);
  const QuickJS = await getQuickJS();
  const settings = { memoryLimitBytes: 64 << 20, maxStackSizeBytes: 512 << 10, interruptHandler: () => false };

  // newContext is a fresh runtime (its own heap, as a Go cell has) and
  // context, with hostEmit, which reads its two string arguments.
  const newContext = () => {
    const vm = QuickJS.newRuntime(settings).newContext();
    const emit = vm.newFunction('hostEmit', (a, b) => {
      vm.getString(a);
      vm.getString(b);
    });
    vm.setProp(vm.global, 'hostEmit', emit);
    emit.dispose();
    return vm;
  };
  const evalSmall = (vm) => {
    const h = vm.unwrapResult(vm.evalCode(EVAL_SMALL_JS));
    if (vm.getNumber(h) !== 4950) throw new Error('eval_small: wrong result');
    h.dispose();
  };
  const dispose = (vm) => {
    const rt = vm.runtime;
    vm.dispose();
    rt.dispose();
  };

  const metrics = {
    // eval_live: the small cell in a live context (Go: eval_small, a whole cell).
    async eval_live() {
      const vm = newContext();
      return { op: () => evalSmall(vm), close: () => dispose(vm) };
    },
    // new_context_eval: a fresh runtime and context, the small cell, dispose
    // (Go: eval_small).
    async new_context_eval() {
      return {
        op: () => {
          const vm = newContext();
          evalSmall(vm);
          dispose(vm);
        },
      };
    },
    // host_call: one synchronous call of hostEmit, in a loop (Go: host_call).
    async host_call() {
      const vm = newContext();
      const code = `{ for (let i = 0; i < ${HOST_CALLS}; i++) hostEmit("text", "x"); }`;
      return { op: () => vm.unwrapResult(vm.evalCode(code)).dispose(), perOp: HOST_CALLS, close: () => dispose(vm) };
    },
  };
  return metrics;
}
