#!/bin/sh
# The suite in two sittings (docs/testing.md#how-the-suite-runs). Most files spend their time waiting on servers,
# child processes and browsers: two run at a time. The soak files load the whole machine with jobs and databases of
# their own: one at a time, after the others, so that none of their time budgets is spent waiting for another file.
# Each sitting prints its own "# { total: … }" line; .ci/run adds them up.
cd "$(dirname "$0")/.." || exit 1
status=0
# shellcheck disable=SC2046 # one argument per file: the paths have no spaces
npx tap --jobs 2 $(find dist -name '*.test.js' -not -path 'dist/soak/*' | sort) || status=$?
npx tap --jobs 1 $(find dist/soak -name '*.test.js' | sort) || status=$?
exit "$status"
