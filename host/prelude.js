// The Code Mode guest API, evaluated once into the engine's template after
// abi/bridge.js. Per-exec data (catalog, convenience names, API files) arrives
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
  const str = String;
  const isArray = Array.isArray;

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

  let files = [];
  const normalize = (path) => {
    const p = str(path).trim().replace(/^\/+/, "");
    if (p === "" || p.split("/").some((s) => s === "" || s === "." || s === "..")) {
      throw new E("invalid API file path");
    }
    return p;
  };
  define("API", freeze({
    list: async (prefix) => {
      let p = prefix === undefined ? "" : str(prefix).trim().replace(/^\/+/, "").replace(/\/+$/, "");
      if (p !== "") p = normalize(p);
      return files.filter((f) => p === "" || f.path === p || f.path.startsWith(p + "/"))
        .map((f) => ({ path: f.path, bytes: f.bytes }));
    },
    read: async (path) => {
      const p = normalize(path);
      for (const f of files) if (f.path === p) return f.content;
      throw new E("Unknown API file: " + p);
    },
  }));

  // The host passes its data as JSON text: QuickJS parses JSON several
  // times faster than the same data as an object literal in the source.
  g.__cm_setup = (dataJSON, toolsJSON, nsJSON) => {
    delete g.__cm_setup;
    const data = parse(dataJSON), nsData = parse(nsJSON);
    // ALL_TOOLS is parsed on first use: most cells call tools by the ids in
    // the quick index and never read it, and a large catalog's entries
    // cost several microseconds each to build.
    let all;
    Object.defineProperty(g, "ALL_TOOLS", {
      get: () => all === undefined ? (all = freeze(parse(toolsJSON).map((t) => freeze(t)))) : all,
      enumerable: false, configurable: false,
    });
    for (const [name, id] of data.names) {
      tools[name] = (input) => tools.callValue(id, input);
    }
    define("tools", freeze(tools));
    files = freeze(data.files.map((f) => freeze(f)));
    const mcp = Object.create(null);
    mcp.$api = () => bridge("mcp_api", {});
    for (const s of data.mcp) {
      const server = Object.create(null);
      const sid = s.identifier;
      server.$api = (toolName, options) => bridge("mcp_api", {
        server: sid,
        selector: toolName === undefined || toolName === null ? "" : str(toolName),
        schema: !!(options && options.schema),
      });
      for (const [method, id] of s.tools) {
        server[method] = (...args) => {
          const input = args[0];
          if (args.length > 1 || (args.length === 1 && (typeof input !== "object" || input === null || isArray(input)))) {
            return Promise.reject(new E("MCP namespace tools accept one object argument."));
          }
          return bridge("mcp", { id, input: input === undefined ? {} : input });
        };
      }
      const op = (method) => (params) => bridge("mcp_request", { server: sid, method, params: params === undefined ? {} : params });
      server.resources = freeze({ list: op("resources/list"), read: op("resources/read") });
      server.prompts = freeze({ list: op("prompts/list"), get: op("prompts/get") });
      mcp[sid] = freeze(server);
    }
    define("MCP", freeze(mcp));
    const spaces = Object.create(null);
    const build = (id, d) => {
      switch (d.k) {
        case "f": return (...args) => bridge("namespace", { id, path: d.p, args });
        case "a": return freeze(d.a.map((x) => build(id, x)));
        case "o": {
          const o = {};
          for (const k of Object.keys(d.o)) o[k] = build(id, d.o[k]);
          return freeze(o);
        }
        default: return d.v;
      }
    };
    for (const ns of nsData) {
      const value = build(ns.id, ns.scope);
      spaces[ns.globalName] = value;
      const existing = Object.getOwnPropertyDescriptor(g, ns.globalName);
      if (!existing || existing.configurable) define(ns.globalName, value);
    }
    define("namespaces", freeze(spaces));
    if (!isArray(data.names)) throw new E("bad setup");
  };
})();
