package quickjswasi

// The one place that names the engine's module: the version of the npm
// package quickjs-wasi and the sha256 of its package/quickjs.wasm. Every
// source of the module is checked against the hash before it runs, and
// TestPinAgrees holds every other mention in the repository (the Makefile,
// scripts, documentation) to these two lines.
const (
	QuickJSWasiVersion = "3.7.0"
	QuickJSWasiSHA256  = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"
)
