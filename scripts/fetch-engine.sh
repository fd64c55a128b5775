#!/usr/bin/env bash
# make setup's engine step: makes sure the pinned quickjs.wasm is where the
# engines look for it (engines/quickjswasi/module.go), which nothing else
# depends on: an engine start fetches it by itself. With npm installed, npm
# fetches the tarball (its registry, proxy and cache settings apply) into
# $2; without npm, the engine's own download runs. The Go side verifies
# the sha256 pinned in engines/quickjswasi/pin.go either way.
set -euo pipefail
version="$1" npmcache="$2"
GO="${GO:-go}"
setup=./engines/quickjswasi/internal/setup

# Already in place (the cache, or $CODEMODE_QUICKJS_WASM): done.
if "$GO" run "$setup" -offline >/dev/null 2>&1; then
  exit 0
fi
if [ -z "${CODEMODE_QUICKJS_WASM:-}" ] && command -v npm >/dev/null 2>&1; then
  tgz="$npmcache/quickjs-wasi-$version.tgz"
  if [ ! -f "$tgz" ]; then
    mkdir -p "$npmcache"
    (cd "$npmcache" && npm pack --silent "quickjs-wasi@$version" >/dev/null)
  fi
  # A tarball that fails verification is not kept for the next run.
  "$GO" run "$setup" -tgz "$tgz" || { rm -f "$tgz"; exit 1; }
  exit 0
fi
exec "$GO" run "$setup"
