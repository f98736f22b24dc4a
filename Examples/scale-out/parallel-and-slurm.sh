#!/usr/bin/env bash
#SBATCH --job-name=medialint --cpus-per-task=1 --mem=1G
# Checking a media library in N shards, on one machine or a cluster, with tools that already exist.
#
#   Examples/scale-out/parallel-and-slurm.sh parallel LIBRARY [N]   GNU parallel, N shards at once (default 4)
#   sbatch --array=1-16 Examples/scale-out/parallel-and-slurm.sh slurm LIBRARY 16
#
# Each shard keeps its results in its own SQLite store (a shard that is stopped and started again resumes);
# `medialint report --merge` combines them into one report.
set -euo pipefail
mode=${1:?parallel or slurm}
library=${2:?the media library folder}
shards=${3:-4}
results=${RESULTS:-medialint-results}
mkdir -p "$results"

case "$mode" in
parallel)
    # --jobs 1: GNU parallel already runs one shard per core.
    seq 1 "$shards" | parallel --halt never \
        "medialint check '$library' --shard {}/$shards --jobs 1 --db '$results/shard-{}.sqlite' --format jsonl > '$results/shard-{}.jsonl' || [ \$? -le 1 ]"
    medialint report --merge "$results"/shard-*.sqlite
    ;;
slurm)
    # (sbatch reads the #SBATCH line at the top: options count only before the script's first command.)
    shard=${SLURM_ARRAY_TASK_ID:?run with sbatch --array=1-N}
    medialint check "$library" --shard "$shard/$shards" --jobs 1 --db "$results/shard-$shard.sqlite" --format jsonl \
        > "$results/shard-$shard.jsonl" || [ $? -le 1 ]
    # When the array is done: medialint report --merge medialint-results/shard-*.sqlite --format junit -o report.xml
    ;;
*)
    echo "usage: $0 parallel|slurm LIBRARY [SHARDS]" >&2
    exit 2
    ;;
esac
