#!/usr/bin/env bash
# A koth tournament as N shards spread over hosts by GNU parallel, then merged here:
#   deploy/parallel/run-shards.sh N SSHLOGINS OUT GAME BOT... [-- KOTH OPTIONS]
# such as
#   deploy/parallel/run-shards.sh 8 '2/alice@host1,2/host2,:' archive coup bots/*.wasm -- --seed 1
# SSHLOGINS is GNU parallel's --sshlogin list (`2/host` runs 2 shards at once on host; `:` is
# this machine). Give the bots as paths relative to the current folder: each is copied to every
# host. Every host needs the same koth build, on its PATH or at $KOTH. The shard folders come
# back here (shard-K) and are merged into OUT.
set -euo pipefail
if [ $# -lt 5 ]; then
    sed -n '2,10p' "$0" >&2
    exit 2
fi
n=$1 logins=$2 out=$3 game=$4
shift 4
KOTH=${KOTH:-koth}
bots=() options=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do bots+=("$1"); shift; done
[ $# -gt 0 ] && shift
options=("$@")
basefiles=()
for b in "${bots[@]}"; do
    case "$b" in
        /*) echo "run-shards: give bots as relative paths (they are copied to each host): $b" >&2; exit 2 ;;
    esac
    basefiles+=(--basefile "$b")
done
# --halt: stop at the first failed shard; its folder keeps its journal for --resume.
parallel --will-cite --halt now,fail=1 --sshlogin "$logins" --workdir . "${basefiles[@]}" \
    --return 'shard-{}' --cleanup \
    "$KOTH" "$game" "${bots[@]}" "${options[@]}" --shard "{}/$n" --out 'shard-{}' --resume \
    ::: $(seq 1 "$n")
shards=()
for k in $(seq 1 "$n"); do shards+=("shard-$k"); done
"$KOTH" merge "${shards[@]}" --out "$out"
