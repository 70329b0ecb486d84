#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on every publishable package (ESM-only: node10 and require() are not targets).
set -euo pipefail
cd "$(dirname "$0")/.."
for pkg in runtime datafile map map-tools teehistorian snapshot netmsg net demo export cli; do
  npx publint --strict "packages/$pkg"
  npx attw --pack "packages/$pkg" --profile esm-only --format table-flipped
done
