#!/usr/bin/env bash
# Issues 32 and 45, item 4: the readings reports with 100 seeds per difficulty in reproducible mode, on
# local processes, on a local Dask cluster, or both (WHERE=local|dask|both, default both); PROVE=1 adds the
# solvers' deep proof mode (--prove). Wall times go to results/readings-regeneration-times.txt (append
# these lines to results/README.md).
#
#   scripts/regenerate_readings.sh            # everything (hours on 2 cores)
#   WHERE=dask MAPS=easter-island scripts/regenerate_readings.sh   # Easter Island on a local Dask cluster only
#   SEEDS=1-5 OUT=/tmp/regen scripts/regenerate_readings.sh   # a rehearsal into another folder
#   DRY=1 scripts/regenerate_readings.sh      # print the commands only
#
# The answers do not depend on load, workers or the cluster (reproducible mode), so the Dask run must
# give the same records as the local one apart from `seconds`; the last step checks that.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-1-100}
OUT=${OUT:-results}
WORKERS=${WORKERS:-2}
WHERE=${WHERE:-both}
MAPS=${MAPS:-easter-island zoo}
PROVE=${PROVE:+--prove}
TIMES=$OUT/readings-regeneration-times.txt
export PYTHONPATH=$PWD
run() {
    echo "+ $*"
    [ -n "${DRY:-}" ] && return 0
    local t0=$SECONDS
    "$@"
    echo "$* : wall $((SECONDS - t0)) s" >> "$TIMES"
}
EI=(easter-island --seeds "$SEEDS" --readings default,bag=full,strict-action=on ${PROVE:+"$PROVE"} --quiet)
ZOO=(zoo --shuffle-dangers --seeds "$SEEDS" --readings default,exit-pairs=strict,zoo-exits=stops ${PROVE:+"$PROVE"} --quiet)
mkdir -p "$OUT"
want() { [[ " $MAPS " == *" $1 "* ]]; }
local_run() {  # MAP NAME ARGS...: a batch on local processes, then its report
    local name=$1; shift
    [ -n "${DRY:-}" ] || rm -rf "${OUT:?}/$name"  # a folder made with other work settings is refused by `batch`
    run python -m solver batch "$@" --workers "$WORKERS" --out "$OUT/$name"
    run python -m solver report "$OUT/$name"
}
if [ "$WHERE" != dask ]; then
    want easter-island && local_run batch-readings-easter-island "${EI[@]}"
    want zoo && local_run batch-readings-zoo "${ZOO[@]}"
fi
[ "$WHERE" = local ] && exit 0
# On a Dask cluster only: the Dask folder is the report's folder.
DSUF=-dask
[ "$WHERE" = dask ] && DSUF=
# The same on a local Dask cluster (scheduler and workers bound to 127.0.0.1, one thread per worker).
if [ -z "${DRY:-}" ]; then
    dask scheduler --host 127.0.0.1 --port 8786 --no-dashboard > "$OUT/dask-scheduler.log" 2>&1 &
    SCHED=$!
    sleep 5
    dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --nworkers "$WORKERS" --nthreads 1 --no-dashboard \
        > "$OUT/dask-workers.log" 2>&1 &
    WORK=$!
    trap 'kill $WORK $SCHED 2>/dev/null || true' EXIT
    sleep 10
fi
dask_run() {
    local name=$1$DSUF; shift
    [ -n "${DRY:-}" ] || rm -rf "${OUT:?}/$name"
    run python -m solver batch "$@" --scheduler tcp://127.0.0.1:8786 --out "$OUT/$name"
    [ -n "$DSUF" ] || run python -m solver report "$OUT/$name"
}
want easter-island && dask_run batch-readings-easter-island "${EI[@]}"
want zoo && dask_run batch-readings-zoo "${ZOO[@]}"
{ [ -n "${DRY:-}" ] || [ "$WHERE" != both ]; } && exit 0
python - "$OUT" <<'EOF'
import sys, pathlib
from solver.batch.runner import TIMING_FIELDS, load_results
out = pathlib.Path(sys.argv[1])
for name in ("batch-readings-easter-island", "batch-readings-zoo"):
    a, b = (load_results(out / n / "results.jsonl") for n in (name, name + "-dask"))
    strip = lambda recs: {k: {f: v for f, v in r.items() if f not in TIMING_FIELDS} for k, r in recs.items()}
    print(f"{name}: {len(a)} records; the Dask run gives the same records apart from timings: {strip(a) == strip(b)}")
EOF
