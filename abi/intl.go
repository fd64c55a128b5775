package abi

import _ "embed"

// The guest's Intl (see [EnvScripts]): intl.js formats with the locale data
// of intldata.js (extracted from ICU by internal/intlgen/locales.mjs, run
// with the Node pinned in the Makefile) and the time zone rules of tzdata.js
// (written from Go's time zone database by internal/intlgen). Both are
// generated and checked in; the generators say how to run them.
//
//go:generate go run ../internal/intlgen -o tzdata.js
var (
	//go:embed tzdata.js
	tzdataJS string
	//go:embed intldata.js
	intldataJS string
	//go:embed intl.js
	intlJS string
)
