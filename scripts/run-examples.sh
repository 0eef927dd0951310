#!/usr/bin/env bash
# Runs every example of every workspace crate, `cargo run --example NAME -p CRATE`, found through
# `cargo metadata` (a new example is run without being listed anywhere). Debug build: the test
# step has already compiled the libraries in that profile, so this only links the examples.
#
# An example runs without arguments unless its file has a line
#   //! ci-run: ARG ...     (the arguments CI passes, e.g. an output file under target/)
#   //! ci-run: skip REASON (not run by CI; the reason is printed)
# User examples check their own answers with asserts, so a non-zero exit fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t examples < <(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
meta = json.load(sys.stdin)
for p in sorted(meta["packages"], key=lambda p: p["name"]):
    for t in sorted(p["targets"], key=lambda t: t["name"]):
        if "example" in t["kind"]:
            print(p["name"], t["name"], t["src_path"])
')
[ "${#examples[@]}" -gt 0 ] || { echo "no examples found" >&2; exit 1; }

mkdir -p target/ci-examples
ran=0
for line in "${examples[@]}"; do
  read -r crate name path <<<"$line"
  directive="$(sed -n 's|^//! ci-run: *||p' "$path" | head -n 1)"
  if [[ "$directive" == skip* ]]; then
    echo "--- $crate/$name: skipped (${directive#skip})"
    continue
  fi
  read -r -a args <<<"$directive"
  echo "--- cargo run --example $name -p $crate -- ${args[*]:-}"
  start=$SECONDS
  cargo run --quiet --example "$name" -p "$crate" -- "${args[@]}" | tail -n 3
  echo "    ($((SECONDS - start)) s)"
  ran=$((ran + 1))
done
echo "ran $ran of ${#examples[@]} examples"
