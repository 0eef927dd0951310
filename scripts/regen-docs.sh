#!/usr/bin/env bash
# Regenerates the generated parts of the user guide from the code, in one step:
#   docs/cli-reference.md  every `proxima ... --help` (crates/proxima-cli/src/cli_reference.rs)
#   docs/pairs.md          the pair x algorithm table between its markers
#                          (crates/proxima-geom/tests/docs_pair_table.rs)
# Run it after adding or changing a command, an option or a dispatcher route; the same tests
# fail in `cargo test --workspace` (CI) while the files are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
PROXIMA_BLESS=1 cargo test -q -p proxima-cli --bin proxima cli_reference_is_current
PROXIMA_BLESS=1 cargo test -q -p proxima-geom --test docs_pair_table
git status --short docs/
