// Events and cancellation, evaluated by every engine after env.js (it needs
// setTimeout): Event, CustomEvent, EventTarget, AbortController and
// AbortSignal, as the DOM standard and Node define them, without capture
// phases or bubbling (there is no tree to travel). A listener's exception
// does not stop the others: it is printed as Node prints an uncaught one,
// and dispatch goes on. Everything a later call uses is captured here.
(() => {
  "use strict";
  const g = globalThis;
  const { emit } = g.__cm_bridge;
  const O = Object, defineProperty = O.defineProperty;
  const apply = Reflect.apply;
  const TypeErr = TypeError, DOMExc = g.DOMException;
  const WM = WeakMap, wmGet = WM.prototype.get, wmSet = WM.prototype.set;
  const MapC = Map, mapGet = MapC.prototype.get, mapSet = MapC.prototype.set;
  const push = Array.prototype.push, splice = Array.prototype.splice, arrSlice = Array.prototype.slice;
  const setTimer = g.setTimeout;
  const dateNow = Date.now, str = String, num = Number;
  const iterator = Symbol.iterator;
  const define = (name, value) =>
    defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
  const tag = (C, name) => defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const slotOf = (slots, what) => (self) => {
    const s = apply(wmGet, slots, [self]);
    if (s === undefined) throw new TypeErr("Illegal invocation: not " + what);
    return s;
  };
  const report = (e) => {
    let line;
    try {
      line = e !== null && typeof e === "object" && "message" in e ? str(e.name) + ": " + str(e.message) : str(e);
    } catch (_) {
      line = "unprintable exception";
    }
    try { emit("text", "Uncaught " + line + " (in an event listener)"); } catch (_) {}
  };

  const events = new WM(), eventSlot = slotOf(events, "an Event");
  class Event {
    constructor(type, init) {
      if (arguments.length === 0) throw new TypeErr('The "type" argument must be specified');
      const o = init === undefined || init === null ? {} : init;
      if (typeof o !== "object" && typeof o !== "function") throw new TypeErr("The event's options must be an object");
      apply(wmSet, events, [this, {
        type: str(type), bubbles: !!o.bubbles, cancelable: !!o.cancelable, composed: !!o.composed,
        prevented: false, stopped: false, target: null, current: null, time: dateNow(),
      }]);
    }
    get type() { return eventSlot(this).type; }
    get bubbles() { return eventSlot(this).bubbles; }
    get cancelable() { return eventSlot(this).cancelable; }
    get composed() { return eventSlot(this).composed; }
    get defaultPrevented() { return eventSlot(this).prevented; }
    get target() { return eventSlot(this).target; }
    get currentTarget() { return eventSlot(this).current; }
    get srcElement() { return eventSlot(this).target; }
    get eventPhase() { return eventSlot(this).current === null ? 0 : 2; }
    get timeStamp() { return eventSlot(this).time; }
    get isTrusted() { eventSlot(this); return false; }
    get returnValue() { return !eventSlot(this).prevented; }
    get cancelBubble() { return eventSlot(this).stopped; }
    set cancelBubble(v) { if (v) eventSlot(this).stopped = true; }
    preventDefault() { const s = eventSlot(this); if (s.cancelable) s.prevented = true; }
    stopPropagation() { eventSlot(this); }
    stopImmediatePropagation() { eventSlot(this).stopped = true; }
    composedPath() { const s = eventSlot(this); return s.current === null ? [] : [s.current]; }
  }
  ["NONE", "CAPTURING_PHASE", "AT_TARGET", "BUBBLING_PHASE"].forEach((k, i) => {
    defineProperty(Event, k, { value: i, enumerable: true });
    defineProperty(Event.prototype, k, { value: i, enumerable: true });
  });
  tag(Event, "Event");

  const details = new WM();
  class CustomEvent extends Event {
    constructor(type, init) {
      super(...arguments);
      apply(wmSet, details, [this, init === undefined || init === null ? null : init.detail === undefined ? null : init.detail]);
    }
    get detail() { eventSlot(this); const d = apply(wmGet, details, [this]); return d === undefined ? null : d; }
  }
  tag(CustomEvent, "CustomEvent");

  // A target's listeners: type -> [{fn, capture, once, removed}], in the
  // order they were added.
  const targets = new WM(), targetSlot = slotOf(targets, "an EventTarget");
  const flags = (options) => typeof options === "boolean" ? { capture: options } :
    options !== null && typeof options === "object" ? options : {};
  const find = (list, fn, capture) => {
    for (let i = 0; i < list.length; i++) if (list[i].fn === fn && list[i].capture === capture) return i;
    return -1;
  };
  const remove = (t, type, fn, capture) => {
    const list = apply(mapGet, t, [type]);
    const i = list === undefined ? -1 : find(list, fn, capture);
    if (i >= 0) { list[i].removed = true; apply(splice, list, [i, 1]); }
  };
  class EventTarget {
    constructor() { apply(wmSet, targets, [this, new MapC()]); }
    addEventListener(type, fn, options) {
      const t = targetSlot(this);
      if (arguments.length < 2) throw new TypeErr('The "type" and "listener" arguments must be specified');
      if (fn === null || fn === undefined) return;
      if (typeof fn !== "function" && typeof fn !== "object") throw new TypeErr('The "listener" argument must be a function or an object with handleEvent');
      const o = flags(options), capture = !!o.capture, signal = o.signal;
      if (signal !== undefined && signal !== null && abortSlot(signal).aborted) return;
      type = str(type);
      let list = apply(mapGet, t, [type]);
      if (list === undefined) apply(mapSet, t, [type, list = []]);
      if (find(list, fn, capture) >= 0) return;
      apply(push, list, [{ fn, capture, once: !!o.once, removed: false }]);
      if (signal !== undefined && signal !== null) {
        apply(EventTarget.prototype.addEventListener, signal, ["abort", () => remove(t, type, fn, capture), { once: true }]);
      }
    }
    removeEventListener(type, fn, options) {
      const t = targetSlot(this);
      remove(t, str(type), fn, !!flags(options).capture);
    }
    dispatchEvent(event) {
      const t = targetSlot(this), e = eventSlot(event);
      if (e.current !== null) throw new DOMExc("The event is already being dispatched", "InvalidStateError");
      e.target = this;
      e.current = this;
      e.stopped = false;
      const list = apply(mapGet, t, [e.type]);
      const now = list === undefined ? [] : apply(arrSlice, list, []);
      try {
        for (let i = 0; i < now.length && !e.stopped; i++) {
          const l = now[i];
          if (l.removed) continue;
          if (l.once) remove(t, e.type, l.fn, l.capture);
          try {
            if (typeof l.fn === "function") apply(l.fn, this, [event]);
            else { const h = l.fn.handleEvent; if (typeof h === "function") apply(h, l.fn, [event]); }
          } catch (err) {
            report(err);
          }
        }
      } finally {
        e.current = null;
      }
      return !e.prevented;
    }
  }
  tag(EventTarget, "EventTarget");

  // An AbortSignal's state: aborted, reason, its onabort handler and the
  // signals that follow it (AbortSignal.any).
  const signals = new WM(), abortSlot = slotOf(signals, "an AbortSignal");
  let making = false;
  const newSignal = () => {
    making = true;
    try { return new AbortSignal(); } finally { making = false; }
  };
  // abort marks signal and, breadth first, the signals that follow it, then
  // fires their abort events in that order: a loop, not recursion, so a long
  // chain of AbortSignal.any cannot overflow the stack.
  const abort = (signal, reason) => {
    const first = abortSlot(signal);
    if (first.aborted) return;
    const why = reason === undefined ? new DOMExc("This operation was aborted", "AbortError") : reason;
    const order = [signal];
    for (let i = 0; i < order.length; i++) {
      const s = abortSlot(order[i]);
      s.aborted = true;
      s.reason = why;
      const follow = s.followers;
      s.followers = [];
      for (let j = 0; j < follow.length; j++) if (!abortSlot(follow[j]).aborted) apply(push, order, [follow[j]]);
    }
    for (let i = 0; i < order.length; i++) apply(EventTarget.prototype.dispatchEvent, order[i], [new Event("abort")]);
  };
  class AbortSignal extends EventTarget {
    constructor() {
      if (!making) throw new TypeErr("Illegal constructor: AbortSignal comes from new AbortController().signal, AbortSignal.abort(), AbortSignal.timeout() or AbortSignal.any()");
      super();
      apply(wmSet, signals, [this, { aborted: false, reason: undefined, handler: null, followers: [] }]);
    }
    get aborted() { return abortSlot(this).aborted; }
    get reason() { return abortSlot(this).reason; }
    throwIfAborted() { const s = abortSlot(this); if (s.aborted) throw s.reason; }
    get onabort() { return abortSlot(this).handler; }
    set onabort(fn) {
      const s = abortSlot(this), first = s.handler === null;
      s.handler = typeof fn === "function" || (fn !== null && typeof fn === "object") ? fn : null;
      // The handler takes its place among the listeners when first set, as
      // an event handler attribute does.
      if (first && s.handler !== null) {
        apply(EventTarget.prototype.addEventListener, this, ["abort", (e) => {
          const h = s.handler;
          if (typeof h === "function") apply(h, this, [e]);
        }]);
      }
    }
    static abort(reason) { const s = newSignal(); abort(s, reason); return s; }
    static timeout(ms) {
      const n = num(ms);
      if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER)) throw new TypeErr('The "delay" argument must be a non-negative number, not ' + str(ms));
      const s = newSignal();
      setTimer(() => abort(s, new DOMExc("The operation was aborted due to timeout", "TimeoutError")), n);
      return s;
    }
    static any(list) {
      if (list === null || (typeof list !== "object" && typeof list !== "function") || typeof list[iterator] !== "function") {
        throw new TypeErr('The "signals" argument must be an iterable of AbortSignal');
      }
      const sources = [];
      for (const x of list) { abortSlot(x); apply(push, sources, [x]); }
      const out = newSignal();
      for (let i = 0; i < sources.length; i++) {
        const s = abortSlot(sources[i]);
        if (s.aborted) { abort(out, s.reason); return out; }
      }
      for (let i = 0; i < sources.length; i++) apply(push, abortSlot(sources[i]).followers, [out]);
      return out;
    }
  }
  tag(AbortSignal, "AbortSignal");

  const controllers = new WM(), controllerSlot = slotOf(controllers, "an AbortController");
  class AbortController {
    constructor() { apply(wmSet, controllers, [this, newSignal()]); }
    get signal() { return controllerSlot(this); }
    abort(reason) { abort(controllerSlot(this), reason); }
  }
  tag(AbortController, "AbortController");

  for (const C of [Event, CustomEvent, EventTarget, AbortSignal, AbortController]) define(C.name, C);
})();
