module github.com/seed11a79d2d/codemode

go 1.26.0

require (
	github.com/evanw/esbuild v0.28.2
	github.com/klauspost/compress v1.20.4
	github.com/tetratelabs/wazero v1.12.0
	go.uber.org/goleak v1.3.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
