// console, evaluated by every engine after web.js: each call appends one
// text output item through the bridge's emit, formatted as Node prints data.
(() => {
  "use strict";
})();
