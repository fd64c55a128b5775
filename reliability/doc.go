// Package reliability holds Code Mode's hostile-code corpus, its fuzz targets
// across package boundaries (the whole exec path, the bridge JSON codec, MCP
// name mapping), and its load and fault tests. It has no API: everything is
// in its tests and testdata; README.md lists what each test proves.
package reliability
