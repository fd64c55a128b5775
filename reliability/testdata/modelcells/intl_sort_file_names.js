// status: completed
// value: {"plain":["_config.yml","CHANGELOG.md","config.json","image10.png","image2.png","index.ts","Makefile","README.md","src"],"natural":["_config.yml","CHANGELOG.md","config.json","image2.png","image10.png","index.ts","Makefile","README.md","src"]}
// Sorting a directory listing: localeCompare, then a numeric collator.
const files = ["README.md", "config.json", "src", "image10.png", "Makefile", "image2.png", "index.ts", "CHANGELOG.md", "_config.yml"];
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
return {
  plain: [...files].sort((a, b) => a.localeCompare(b)),
  natural: [...files].sort(collator.compare),
};
