#!/usr/bin/env bash
# Publishability check, offline: every publishable crate of the workspace has the crates.io
# metadata (description, license, keywords, categories, readme, documentation, docs.rs
# settings), no placeholder URL, and `cargo package --list` ships its README and both license
# texts. Full packaging (`cargo package --workspace --no-verify`) needs the registry index:
# crates depending on unpublished workspace crates package only together with them, in the
# publish order num -> lcp -> geom -> robot -> scene -> cli-support -> bench -> cli.
set -euo pipefail
cd "$(dirname "$0")/.."

names="$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, re, sys
meta = json.load(sys.stdin)
bad = []
for p in meta["packages"]:
    name, manifest = p["name"], p["manifest_path"]
    if re.search(r"example\.(invalid|com|org)|TODO|FIXME", open(manifest).read()):
        bad.append(f"{name}: placeholder in {manifest}")
    if p.get("publish") == []:
        continue  # publish = false (proxima-py ships as a Python wheel)
    for field in ["description", "license", "readme", "documentation", "keywords", "categories"]:
        if not p.get(field):
            bad.append(f"{name}: no {field}")
    if len(p.get("keywords") or []) > 5:
        bad.append(f"{name}: more than 5 keywords")
    if "rs" not in ((p.get("metadata") or {}).get("docs") or {}):
        bad.append(f"{name}: no [package.metadata.docs.rs]")
    print(name)
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
')"
mapfile -t crates <<<"$names"
for c in "${crates[@]}"; do
  files="$(cargo package -p "$c" --no-verify --list --offline --allow-dirty)"
  for f in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE src/lib.rs; do
    [ "$c" = proxima-cli ] && [ "$f" = src/lib.rs ] && f=src/main.rs
    grep -qx "$f" <<<"$files" || { echo "$c: $f is not in the package" >&2; exit 1; }
  done
  echo "$c: $(wc -l <<<"$files") files, metadata complete"
done
