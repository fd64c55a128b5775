// The Code Mode guest API, evaluated once into the engine's template after
// abi/bridge.js. Per-exec data (ALL_TOOLS, convenience names, MCP servers) arrives
// through __cm_setup, which the host calls first on each cell's first line and
// which removes itself. The bridge global is captured and removed here, so
// guest code reaches the host only through these functions.
(() => {
  "use strict";
  const g = globalThis;
  const { request, emit, encode } = g.__cm_bridge;
  delete g.__cm_bridge;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const E = Error;
  const TE = TypeError;
  const str = String;
  const isArray = Array.isArray;
  const keysOf = Object.keys;
  const P = Proxy;
  const apply = Reflect.apply;
  const lowerOf = String.prototype.toLowerCase;
  const includesOf = String.prototype.includes;
  const replaceOf = String.prototype.replace;
  const sliceOf = String.prototype.slice;
  const nonAlnum = /[^a-z0-9]/g;
  const execOf = RegExp.prototype.exec;
  const identRe = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const isIdent = (s) => apply(execOf, identRe, [s]) !== null;

  // probe are the names that the language and ordinary code read on any
  // object to see what it is: await reads then, JSON.stringify toJSON, string
  // conversion toString and valueOf. The guarded objects below answer them as
  // a plain object would, never with a missing-name function. The same list
  // is catalog.ProbeNames, the names no MCP server or tool takes; a host test
  // compares the two.
  const probe = Object.create(null);
  for (const n of ["then", "toJSON", "toString", "toLocaleString", "valueOf", "constructor", "prototype",
    "__proto__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
    "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"]) probe[n] = true;

  // squash lower-cases s and keeps its letters and digits, at most 32 of
  // them: read_graph, readGraph and READ-GRAPH are one name to a typo.
  const squash = (s) => {
    const l = apply(lowerOf, s, []);
    const out = apply(replaceOf, l, [nonAlnum, ""]);
    return apply(sliceOf, out === "" ? l : out, [0, 32]);
  };
  // ends counts the units a and b share at their start and at their end,
  // less their difference in length: a cheap likeness that a typo or two
  // barely lowers, used to pick the few names worth an edit distance.
  const ends = (a, b) => {
    const n = a.length < b.length ? a.length : b.length;
    let p = 0;
    while (p < n && a[p] === b[p]) p++;
    let q = 0;
    while (q < n - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
    return p + q - (a.length > b.length ? a.length - b.length : b.length - a.length);
  };
  // distance is the edit distance of a and b.
  const distance = (a, b) => {
    let prev = [];
    for (let j = 0; j <= b.length; j++) prev[j] = j;
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) {
        let d = prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
        if (prev[j] + 1 < d) d = prev[j] + 1;
        if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
        cur[j] = d;
      }
      prev = cur;
    }
    return prev[b.length];
  };
  // insert puts item into list, kept sorted by better and at most size
  // long.
  const insert = (list, size, item, better) => {
    let at = list.length;
    while (at > 0 && better(item, list[at - 1])) at--;
    if (at >= size) return;
    for (let k = list.length < size ? list.length : size - 1; k > at; k--) list[k] = list[k - 1];
    list[at] = item;
  };
  // closest returns the displays of the (at most 5) candidates nearest to
  // needle. A candidate is [display, name, other name?] (a null display
  // shows the name); its score is its best name's: the same name but for
  // case and separators first, then a name holding the needle or held by
  // it, then by edit distance. Only the 24 likeliest by ends are measured:
  // a catalog has thousands of names and a cell's time is short. Names
  // further than half the needle's length are only named when nothing is
  // nearer. Ties go in display order.
  const closest = (needle, candidates) => {
    const n = squash(str(needle));
    const near = n.length < 4 ? 2 : (n.length + 1) >> 1;
    const likely = []; // [likeness, candidate, its squashed names]
    for (const c of candidates) {
      let like = -1e9;
      const ms = [];
      for (let i = 1; i < c.length; i++) {
        const m = squash(c[i]);
        ms[ms.length] = m;
        const l = m === n ? 1e6 : apply(includesOf, m, [n]) || apply(includesOf, n, [m]) ? 1e5 : ends(n, m);
        if (l > like) like = l;
      }
      insert(likely, 24, [like, c, ms], (a, b) => a[0] > b[0]);
    }
    const top = []; // [score, display], best first
    for (const [like, c, ms] of likely) {
      let score = like === 1e6 ? 0 : like === 1e5 ? 1 : 1e9;
      if (score > 1) for (const m of ms) { const d = 2 + distance(n, m); if (d < score) score = d; }
      insert(top, 5, [score, c[0] === null ? shown(c[1]) : c[0]], (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]));
    }
    const out = [];
    for (let i = 0; i < top.length; i++) {
      if (top[i][0] <= near + 2 || top[0][0] > near + 2) out[out.length] = top[i][1];
    }
    return out;
  };
  const shown = (k) => isIdent(k) ? k : stringify(k);
  const member = (obj, k) => obj + (isIdent(k) ? "." + k : "[" + stringify(k) + "]");
  const quote = (k) => {
    const s = str(k);
    return stringify(s.length > 80 ? s.slice(0, 80) + "…" : s);
  };
  // missingMessage names what is missing, the closest candidates (names
  // by default) and a hint.
  const missingMessage = (what, key, names, hint, candidates) => {
    if (candidates === undefined) {
      candidates = [];
      for (const k of names) candidates[candidates.length] = [null, k];
    }
    const near = closest(key, candidates);
    return what + " " + quote(key) + "." + (near.length > 0 ? " Closest: " + near.join(", ") + "." : "") + (hint ? " " + hint : "");
  };

  // A name a guarded object does not have reads as a function that throws a
  // TypeError naming the closest real names when it is called (or when a
  // member of it is called: MCP.nope.tool() names MCP's servers). Throwing
  // at the access instead would break code that merely looks: destructuring,
  // logging, feature tests, the probes of libraries and of the engine. The
  // call throws synchronously, so a mistyped name is never a rejected promise
  // that nothing awaits. typeof reads such a name as "function"; `name in
  // object` and Object.keys tell the real members.
  const missing = (message) => {
    let self;
    const fail = freeze(() => { throw new TE(message()); });
    self = new P(fail, {
      get: (t, k) => (typeof k === "symbol" || k in t || probe[k] === true) ? t[k] : self,
      apply: fail,
    });
    return self;
  };
  // guard freezes obj and answers the names it lacks with missing(). Every
  // other operation reaches the frozen object unchanged: Object.keys,
  // JSON.stringify, `in`, and refused writes.
  // With remote, a name the object lacks is remote(k) instead: a large
  // catalog's setup holds only the names its cell's source mentions, and
  // the host resolves the others when they are called.
  const guard = (obj, message, remote) => new P(freeze(obj), {
    get: (t, k) => (typeof k === "symbol" || k in t || probe[k] === true) ? t[k] : remote ? remote(k) : missing(() => message(k, keysOf(t))),
  });

  const bridge = (op, args) => {
    let payload;
    try { payload = stringify(args); } catch (e) {
      return Promise.reject(new E("tool input must be JSON-serializable: " + str(e && e.message)));
    }
    return request(op, payload);
  };

  const tools = Object.create(null);
  tools.search = (query, options) => bridge("search", { query, options });
  tools.describe = (id) => bridge("describe", { id });
  tools.call = (id, input) => bridge("call", { id, input: input === undefined ? {} : input });
  tools.callValue = (id, input) => bridge("callValue", { id, input: input === undefined ? {} : input });

  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: false, enumerable: false, configurable: false });

  define("text", (v) => { emit("text", typeof v === "string" ? v : encode(v)); });
  define("json", (v) => { emit("json", encode(v)); });
  define("yield_control", (reason) => bridge("yield", { reason: reason === undefined ? "" : str(reason) }));

  // API files are read from the host: a large catalog's declarations are
  // megabytes that most cells never read.
  define("API", freeze({
    list: async (prefix) => bridge("api_list", { path: prefix === undefined ? "" : str(prefix) }),
    read: async (path) => bridge("api_read", { path: str(path) }),
  }));

  // tools.swarm: agents.run, phase and log, defined by __cm_setup only when
  // the host passes swarm. Arguments are checked here for clear messages,
  // and again by the host, which trusts only itself.
  const PromiseC = Promise;
  const thenOf = Promise.prototype.then;
  const rejected = (e) => new PromiseC((_, reject) => reject(e));
  class SwarmAgentError extends E {}
  Object.defineProperty(SwarmAgentError.prototype, "name", { value: "SwarmAgentError", writable: true, configurable: true });
  const kind = (v) => v === null ? "null" : isArray(v) ? "an array" : typeof v;
  const hint = (name, v) => {
    if (v !== undefined && (typeof v !== "string" || v.length > 256)) {
      throw new TE("agents.run: options." + name + " must be a string of at most 256 characters, not " + (typeof v === "string" ? "one of " + v.length : kind(v)) + ".");
    }
    return v === undefined ? "" : ",\"" + name + "\":" + stringify(v);
  };
  const agentsRun = (prompt, options) => {
    let payload;
    try {
      if (typeof prompt !== "string") throw new TE("agents.run(prompt, options?): prompt must be a string, not " + kind(prompt) + ".");
      if (prompt.length > 65536) throw new TE("agents.run: prompt is " + prompt.length + " characters; at most 65536 bytes of UTF-8.");
      payload = "{\"prompt\":" + stringify(prompt);
      if (options !== undefined && options !== null) {
        if (typeof options !== "object" || isArray(options)) throw new TE("agents.run: options must be an object with label, model and schema, not " + kind(options) + ".");
        for (const k of keysOf(options)) {
          if (k !== "label" && k !== "model" && k !== "schema") throw new TE("agents.run: unknown option " + quote(k) + " (known: label, model, schema).");
        }
        const { label, model, schema } = options; // each read once: getters run once
        payload += hint("label", label) + hint("model", model);
        if (schema !== undefined && schema !== null) {
          if (typeof schema !== "object" || isArray(schema)) throw new TE("agents.run: options.schema must be a JSON Schema object, not " + kind(schema) + ".");
          let json;
          try { json = stringify(schema); } catch (e) { throw new TE("agents.run: options.schema must be JSON: " + str(e && e.message)); }
          if (typeof json !== "string" || json[0] !== "{") throw new TE("agents.run: options.schema must be a JSON Schema object.");
          if (json.length > 16384) throw new TE("agents.run: options.schema is " + json.length + " characters of JSON; at most 16384.");
          payload += ",\"schema\":" + json;
        }
      }
      payload += "}";
    } catch (e) {
      return rejected(e);
    }
    let p;
    try { p = request("agents.run", payload); } catch (e) { return rejected(new SwarmAgentError(str(e && e.message))); }
    return apply(thenOf, p, [undefined, (e) => { throw new SwarmAgentError(e.message); }]);
  };
  // phase and log never fail on their argument's value: a string as it is,
  // anything else as JSON text, cut to 2048 characters.
  const note = (op, v) => {
    if (v === undefined) throw new TE(op === "phase" ? "phase(title) needs a title." : "log(message) needs a message.");
    let s = typeof v === "string" ? v : encode(v);
    if (s.length > 2048) s = apply(sliceOf, s, [0, 2048]);
    request(op, stringify({ text: s }));
  };
  const defineSwarm = () => {
    define("agents", guard({ run: agentsRun }, (k, names) => missingMessage("agents has no function", k, names, "")));
    define("phase", (title) => { note("phase", title); });
    define("log", (message) => { note("log", message); });
  };

  // The host passes its data as JSON text: QuickJS parses JSON several
  // times faster than the same data as an object literal in the source.
  g.__cm_setup = (dataJSON, toolsJSON, nsJSON, swarm) => {
    delete g.__cm_setup;
    if (swarm === true) defineSwarm();
    const data = parse(dataJSON), nsData = parse(nsJSON);
    // A cell gets ALL_TOOLS only when its source names it, and parses it on
    // first use: it is most of a catalog's data, most cells call tools by
    // the quick index's ids, and each entry costs microseconds to build.
    let all;
    Object.defineProperty(g, "ALL_TOOLS", {
      get: () => {
        if (all !== undefined) return all;
        if (toolsJSON === null) throw new E("ALL_TOOLS is loaded only in cells whose code names ALL_TOOLS; write the name out, or use tools.search(query).");
        return (all = freeze(parse(toolsJSON).map((t) => freeze(t))));
      },
      enumerable: false, configurable: false,
    });
    const partial = data.partial === true;
    for (const [name, id] of data.names) {
      tools[name] = (input) => tools.callValue(id, input);
    }
    // A name that is no tools member may be an MCP tool's, or a catalog
    // tool's that has no convenience function: say where it is. Otherwise
    // the closest names are among both tools' members and MCP tools.
    const toolsMissing = (k, names) => {
      const candidates = [];
      for (const n of names) candidates[candidates.length] = ["tools." + n, n];
      for (const s of data.mcp) {
        for (const [ident, , exact] of s.tools) {
          const path = member("MCP." + s.identifier, exact !== undefined ? exact : ident);
          if (k === ident || k === exact) return "tools has no function " + quote(k) + ". It is an MCP tool: call " + path + "(input).";
          candidates[candidates.length] = exact !== undefined ? [path, ident, exact] : [path, ident];
        }
      }
      const ids = [];
      for (const [name, id] of data.others || []) if ((name === k || id === k) && ids.length < 5) ids[ids.length] = stringify(id);
      if (ids.length > 0) return "tools has no function " + quote(k) + ". Call it with tools.callValue(" + ids.join(" or ") + ", input).";
      return missingMessage("tools has no function", k, names, "tools.search(query) finds catalog tools.", candidates);
    };
    // Only a name that could have a convenience function is sent to the host.
    define("tools", guard(tools, toolsMissing, partial && ((k) => isIdent(k) ? (input) => tools.callValue(k, input) : missing(() => toolsMissing(k, keysOf(tools))))));
    // MCP's own members are not enumerable: Object.keys(MCP) is the servers.
    const mcp = Object.create(null);
    Object.defineProperty(mcp, "$api", { value: () => bridge("mcp_api", {}) });
    Object.defineProperty(mcp, "$search", { value: (query, options) => bridge("mcp_search", { query, options }) });
    // mcpCall is the function of one MCP tool: by its id, or, for a name a
    // large catalog's setup did not carry, by server and name.
    const mcpCall = (target) => (...args) => {
      const input = args[0];
      if (args.length > 1 || (args.length === 1 && (typeof input !== "object" || input === null || isArray(input)))) {
        return Promise.reject(new E("MCP namespace tools accept one object argument."));
      }
      return bridge("mcp", { ...target, input: input === undefined ? {} : input });
    };
    for (const s of data.mcp) {
      const server = Object.create(null);
      const sid = s.identifier;
      server.$api = (toolName, options) => bridge("mcp_api", {
        server: sid,
        selector: toolName === undefined || toolName === null ? "" : str(toolName),
        schema: !!(options && options.schema),
      });
      // A tool is a property by its identifier and, when the host sends
      // one, by its exact MCP name: the same function, so the same id.
      for (const [method, id, exact] of s.tools) {
        const call = mcpCall({ id });
        server[method] = call;
        if (exact !== undefined && !(exact in server)) server[exact] = call;
      }
      const op = (method) => (params) => bridge("mcp_request", { server: sid, method, params: params === undefined ? {} : params });
      server.resources = freeze({ list: op("resources/list"), read: op("resources/read"), templates: op("resources/templates/list") });
      server.prompts = freeze({ list: op("prompts/list"), get: op("prompts/get") });
      // Each tool is one candidate under both its names, shown in the
      // spelling the cell used: a cell that wrote snake or kebab case sees
      // the exact name, with the identifier beside it.
      const guarded = guard(server, (k, names) => {
        const exactStyle = apply(includesOf, k, ["_"]) || apply(includesOf, k, ["-"]);
        const candidates = [];
        for (const [ident, , exact] of s.tools) {
          candidates[candidates.length] = exact === undefined ? [ident, ident] : [exactStyle ? shown(exact) + " (" + ident + ")" : ident, ident, exact];
        }
        return missingMessage("MCP." + sid + " has no tool", k, names, "MCP.$search(query) finds MCP tools.", candidates);
      }, partial && ((k) => mcpCall({ server: sid, name: str(k) })));
      mcp[sid] = guarded;
      if (s.name !== undefined && !(s.name in mcp)) mcp[s.name] = guarded;
    }
    define("MCP", guard(mcp, (k, names) => {
      const candidates = [];
      for (const s of data.mcp) {
        candidates[candidates.length] = s.name === undefined ? [s.identifier, s.identifier] : [s.identifier, s.identifier, s.name];
      }
      return missingMessage("MCP has no server", k, names, "MCP.$api() lists them.", candidates);
    }));
    // namespaces holds every namespace global: MCP first, when it has servers.
    const spaces = Object.create(null);
    if (data.mcp.length > 0) spaces.MCP = g.MCP;
    const build = (id, d, path) => {
      switch (d.k) {
        case "f": return (...args) => bridge("namespace", { id, path: d.p, args });
        case "a": return freeze(d.a.map((x, i) => build(id, x, path + "[" + i + "]")));
        case "o": {
          const o = {};
          for (const k of keysOf(d.o)) o[k] = build(id, d.o[k], member(path, k));
          return guard(o, (k, names) => missingMessage(path + " has no member", k, names, ""));
        }
        default: return d.v;
      }
    };
    for (const ns of nsData) {
      const value = build(ns.id, ns.scope, ns.globalName);
      spaces[ns.globalName] = value;
      const existing = Object.getOwnPropertyDescriptor(g, ns.globalName);
      if (!existing || existing.configurable) define(ns.globalName, value);
    }
    define("namespaces", guard(spaces, (k, names) => missingMessage("namespaces has no namespace", k, names, "")));
    if (!isArray(data.names)) throw new E("bad setup");
  };
})();
