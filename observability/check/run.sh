#!/usr/bin/env bash
# A check beside OutageDashboardTest, by hand (it needs Node.js and the npm registry, which the
# build does not): every expression of the dashboard and the rules parsed by Prometheus's own
# Lezer grammar, and the dashboard type-checked against @grafana/schema's Dashboard type (strict,
# object-literal checks: an unknown or mistyped field fails). @grafana/schema ships TypeScript
# types, no JSON schema. Usage: observability/check/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/parse-promql.mjs" "$work/"
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent @prometheus-io/lezer-promql@0.315.0 @lezer/lr \
  typescript@5 @grafana/schema@13.2.3
node parse-promql.mjs "$here/.."
{ echo "import type { Dashboard } from '@grafana/schema';"
  echo -n "export const d: Dashboard = "; cat "$here/../sluice-outage.json"; echo ";"; } > dashboard.ts
npx tsc --noEmit --strict --moduleResolution bundler --module esnext --target es2022 \
  --skipLibCheck dashboard.ts
echo "the dashboard type-checks against @grafana/schema 13.2.3"
