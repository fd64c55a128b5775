#!/usr/bin/env bash
# Fetches the pinned quickjs-wasi engine from npm, verifies its sha256 and
# places it where engines/quickjswasi embeds it. A file that is already in
# place with the right hash is left alone (no download).
set -euo pipefail
version="$1" want="$2" dest="$3" cache="$4"

sum() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$dest" ] && [ "$(sum "$dest")" = "$want" ]; then
  exit 0
fi
mkdir -p "$cache"
tgz="$cache/quickjs-wasi-$version.tgz"
if [ ! -f "$tgz" ]; then
  (cd "$cache" && npm pack --silent "quickjs-wasi@$version" >/dev/null)
fi
rm -rf "$cache/package"
tar -xzf "$tgz" -C "$cache" package/quickjs.wasm
got=$(sum "$cache/package/quickjs.wasm")
if [ "$got" != "$want" ]; then
  rm -f "$tgz"
  echo "quickjs.wasm sha256 mismatch: expected $want, found $got (quickjs-wasi@$version)" >&2
  exit 1
fi
cp "$cache/package/quickjs.wasm" "$dest"
echo "fetched quickjs-wasi@$version quickjs.wasm ($want)"
