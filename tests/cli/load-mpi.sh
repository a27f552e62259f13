#!/bin/sh
# kbench - command-line tests: kbench load --mpi, 3 ranks on this machine
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Skipped (77) when kbench was built without MPI (configure --with-mpi) or
# mpirun is missing.  Open MPI's mpirun: --oversubscribe (3 ranks on a
# small machine), --allow-run-as-root as root; where it ends a job whose
# rank died, its SIGKILL comes 10 s after its SIGTERM (instead of 1 s), so
# that on a busy machine the ranks it stops have the time to clean up.
# (mpirun waits that long after any failed job, so only there.)
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

"$KBENCH" load --mpi -t 0 1 >"$WORK/probe" 2>&1
if grep -q "built without MPI" "$WORK/probe"; then
    skip "this kbench was built without MPI (configure --with-mpi)"
    finish
fi
if ! command -v mpirun >/dev/null 2>&1; then
    skip "no mpirun here"
    finish
fi
if ! mpirun --version 2>&1 | grep -q "Open MPI"; then
    skip "the test drives Open MPI's mpirun (its options and MCA parameters)"
    finish
fi
MPIRUN="mpirun --oversubscribe"
if [ "$(id -u)" -eq 0 ]; then MPIRUN="$MPIRUN --allow-run-as-root"; fi
MPIRUN_SLOWKILL="$MPIRUN --mca odls_base_sigkill_timeout 10"
# no cross-memory attach in containers without ptrace: plain copies
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_btl_vader_single_copy_mechanism KBENCH D WORK DATA

# the rank of the process a wrapper runs as (Open MPI, MPICH)
RANK='${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-x}}'

# --- a short run: the job's figures are the sum of the ranks' -------------
run timeout 120 $MPIRUN -n 3 "$KBENCH" load --mpi -t 2 --warmup 1 -D "$D" --json "$WORK/r.json" 1
expect_status "3 ranks of 1 client: exit 0" 0
expect_eq "the JSON has 3 ranks and 3 per_rank entries" \
    "$(jget "$WORK/r.json" '(d["ranks"], len(d["results"]["per_rank"]), d["params"]["clients"])')" \
    "(3, 3, 3)"
expect_eq "rank 0's throughput is the sum of the ranks' MB/sec" \
    "$(jget "$WORK/r.json" 'abs(d["results"]["throughput_MBps"] - sum(r["MBps"] for r in d["results"]["per_rank"])) <= 1e-9 * d["results"]["throughput_MBps"] and d["results"]["throughput_MBps"] > 0')" True
expect_eq "ops and bytes are the sums of the ranks'" \
    "$(jget "$WORK/r.json" 'd["results"]["ops_total"] == sum(r["ops"] for r in d["results"]["per_rank"]) > 0 and d["results"]["bytes"] == sum(r["bytes"] for r in d["results"]["per_rank"])')" True
expect_eq "the merged op counts add up to the ranks' ops" \
    "$(jget "$WORK/r.json" 'sum(o["count"] for o in d["results"]["ops"]) == sum(r["ops"] for r in d["results"]["per_rank"])')" True
expect_eq "the job's histograms hold every rank's ops, each op's its count" \
    "$(jget "$WORK/r.json" '(lambda r: (sum(int(p.split(":")[1]) for h in r["histograms"].values() for p in h["buckets"].split()) == sum(x["ops"] for x in r["per_rank"]), all(r["histograms"][o["name"]]["count"] == o["count"] for o in r["ops"])))(d["results"])')" \
    "(True, True)"
expect_eq "the series: the job's seconds, each with its p99 (from the ranks' counts)" \
    "$(jget "$WORK/r.json" '(lambda r: ([p["warmup"] for p in r["series"]["points"]], all(p["ops"] > 0 and 0 < p["lat_p99_ms"] <= p["lat_max_ms"] for p in r["series"]["points"])))(d["results"])')" \
    "([True, False, False], True)"
expect_eq "a per-client entry for each rank's client, ops and bytes the ranks'" \
    "$(jget "$WORK/r.json" '(lambda r: (len(r["clients"]), [c["ops"] for c in r["clients"]] == [x["ops"] for x in r["per_rank"]], [c["bytes"] for c in r["clients"]] == [x["bytes"] for x in r["per_rank"]], 0 < r["clients_summary"]["jain_index"] <= 1))(d["results"])')" \
    "(3, True, True, True)"
expect_lines "one progress line for second 1, the job's (3 clients)" -eq 1 "$WORK/out" \
    '^ +3 +[0-9]+ +[0-9.]+ MB/sec +avg +([0-9.]+|-) +warmup +1 sec +latency [0-9.]+ ms$'
expect_lines "one table row a rank" -eq 3 "$WORK/out" '^ [0-2] +[^ ]+ +1 +[0-9.]+ +[0-9]+ +0$'
expect_out_grep "the spread over the ranks" "^ ranks' MB/sec: min [0-9.]+  median [0-9.]+  max [0-9.]+ "
expect_out_grep "the clock offset bound" "^ clocks: every rank's offset to rank 0 known within [0-9.]+ us "
expect_out_grep "Throughput line for the job" '^Throughput [0-9.]+ MB/sec  3 clients  3 procs  '
expect_empty_dir "every rank's tree cleaned" "$D"

# --- exact: --run-once of one loadfile, 4 clients over 3 ranks ------------
# the merged histograms count exactly what 4 plain clients do
kload --run-once -c "$DATA/small.txt" -D "$D" --json "$WORK/plain.json" 4
expect_status "plain --run-once, 4 clients" 0
run timeout 120 $MPIRUN -n 3 "$KBENCH" load --mpi --run-once -c "$DATA/small.txt" -D "$D" \
    --clients-total 4 --json "$WORK/once.json"
expect_status "--clients-total 4 over 3 ranks, --run-once: exit 0" 0
expect_eq "clients spread 2, 1, 1" \
    "$(jget "$WORK/once.json" '[r["clients"] for r in d["results"]["per_rank"]]')" "[2, 1, 1]"
cat >"$WORK/same.py" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))["results"]
b = json.load(open(sys.argv[2]))["results"]
ca = {o["name"]: o["count"] for o in a["ops"]}
cb = {o["name"]: o["count"] for o in b["ops"]}
assert ca == cb, (ca, cb)
assert a["ops_total"] == b["ops_total"] > 0, (a["ops_total"], b["ops_total"])
assert a["bytes"] == b["bytes"], (a["bytes"], b["bytes"])
assert a["passes"] == b["passes"] == 4, (a["passes"], b["passes"])
EOF
expect_py "each op's merged count is the plain run's" "$WORK/plain.json" "$WORK/once.json" <"$WORK/same.py"
cat >"$WORK/hist.py" <<'EOF'
import collections, json, sys
r = json.load(open(sys.argv[1]))["results"]
def counts(text):
    return collections.Counter({int(b.split(":")[0]): int(b.split(":")[1]) for b in text.split()})
job, clients = collections.Counter(), collections.Counter()
for h in r["histograms"].values():
    job.update(counts(h["buckets"]))
for c in r["clients"]:
    clients.update(counts(c["hist"]))
assert len(r["clients"]) == 4, len(r["clients"])
assert sum(job.values()) == r["ops_total"] > 0, (sum(job.values()), r["ops_total"])
assert job == clients, (job, clients)
assert [c["ops"] for c in r["clients"]] == [15] * 4, r["clients"]
assert sum(p["ops"] for p in r["series"]["points"]) == r["ops_total"], r["series"]
EOF
expect_py "the job's histogram is the sum of the ranks' clients', bucket by bucket" \
    "$WORK/once.json" <"$WORK/hist.py"
expect_empty_dir "every rank's tree cleaned after --run-once" "$D"

# --- --stonewall: the first rank's end ends every rank's measurement ------
# every client is held to 3000 bytes a second (a pass of small.txt moves
# 15000 bytes: 5 s); rank 1's client is stopped (SIGSTOP) once the run is
# in its second 1 and continued 7 s later, after ranks 0 and 2 made their
# pass: with --run-once the job ends when they have, rank 1's pass cut
# short (its client sees the end as it continues, within the 10 s that
# stuck clients get)
rm -f "$WORK"/pid.*
: >"$WORK/out"
: >"$WORK/err"
timeout 150 $MPIRUN -n 3 sh -c "echo \$\$ >\"\$WORK/pid.$RANK\"; exec \"\$KBENCH\" load --mpi --stonewall --run-once -R 0.003 -c \"\$DATA/small.txt\" -D \"\$D\" --json \"\$WORK/sw.json\" 1" \
    >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_progress 1 && [ -s "$WORK/pid.1" ] && c=$(pgrep -P "$(cat "$WORK/pid.1")"); then
    kill -STOP $c
    sleep 7
    kill -CONT $c
    wait "$BG"
    RC=$?
    expect_status "--stonewall --run-once, rank 1's client stopped a while: exit 0" 0
    expect_eq "ranks 0 and 2 made their pass, rank 1 was stopped before its end" \
        "$(jget "$WORK/sw.json" '[r["passes"] for r in d["results"]["per_rank"]]')" "[1, 0, 1]"
else
    fail "the job under mpirun did not start" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi
expect_empty_dir "every rank's tree cleaned after --stonewall" "$D"

# --- ranks that measure different things: exit 2 before anything is made --
# differ NAME REGEX RANK0ARGS -- RANK1ARGS: a job of two ranks in mpirun's
# MPMD form (APP : APP), rank 0 given RANK0ARGS and rank 1 RANK1ARGS
# after `kbench load --mpi`; mpirun's and kbench's status is 2, kbench
# says why in one line matching REGEX (naming rank 1, its host and the
# option with both values), nothing runs and DIR holds what it did
echo keep >"$D/keep"
differ() {
    dname=$1 dre=$2
    shift 2
    a0=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do a0="$a0 $1"; shift; done
    shift
    : >"$WORK/out"
    # shellcheck disable=SC2086 # the arguments are words without blanks
    run timeout 120 $MPIRUN -n 1 $a0 : -n 1 "$@"
    expect_status "$dname: exit 2" 2
    expect_lines "$dname: one line, naming rank 1 and the option" -eq 1 "$WORK/err" "$dre"
    expect_lines "$dname: no other line from kbench" -eq 1 "$WORK/err" '^kbench load'
    expect_no_grep "$dname: no Throughput line" "$WORK/out" '^Throughput'
    expect_no_grep "$dname: no client started (no progress line)" "$WORK/out" ' sec  latency '
    expect_eq "$dname: DIR as it was" "$(ls -A "$D")" "keep"
}
HOSTRE='rank 1 \([^)]+\) runs'
TAIL='every rank must measure the same thing$'
L="$KBENCH load --mpi --warmup 0 -D $D"
differ "-t 1 and -t 4" "^kbench load: $HOSTRE -t 4, rank 0 -t 1: $TAIL" \
    $L -t 1 1 -- $L -t 4 1
differ "NCLIENTS 1 and 2" "^kbench load: $HOSTRE NCLIENTS 2, rank 0 NCLIENTS 1: $TAIL" \
    $L -t 1 1 -- $L -t 1 2
differ "-R 1 and -R 2" "^kbench load: $HOSTRE -R 2, rank 0 -R 1: $TAIL" \
    $L -t 1 -R 1 1 -- $L -t 1 -R 2 1
differ "--run-once and not" "^kbench load: $HOSTRE no --run-once, rank 0 --run-once: $TAIL" \
    $L --run-once -t 1 1 -- $L -t 1 1
mkdir "$WORK/other"
# (-D once a command line: an option given twice is refused)
L0="$KBENCH load --mpi --warmup 0"
differ "-D: another directory" "^kbench load: $HOSTRE -D $WORK/other, rank 0 -D $D: $TAIL" \
    $L -t 1 1 -- $L0 -t 1 -D "$WORK/other" 1
expect_empty_dir "-D: another directory: the other DIR as it was" "$WORK/other"
differ "-B sockio: another --server" \
    "^kbench load: $HOSTRE --server 127.0.0.1:2, rank 0 --server 127.0.0.1:1: $TAIL" \
    $L -t 1 -B sockio --server 127.0.0.1:1 1 -- $L -t 1 -B sockio --server 127.0.0.1:2 1
# two loadfiles of one name, lf.txt in a and b (b's a line longer), each
# rank in its own directory (mpirun -wdir): the bytes differ
mkdir -p "$WORK/a" "$WORK/b" "$WORK/c" "$WORK/none"
cp "$DATA/small.txt" "$WORK/a/lf.txt"
cp "$DATA/small.txt" "$WORK/c/copy.txt"
{ cat "$DATA/small.txt"; echo "# one more line"; } >"$WORK/b/lf.txt"
na=$(wc -c <"$WORK/a/lf.txt")
nb=$(wc -c <"$WORK/b/lf.txt")
differ "-c lf.txt of other bytes" \
    "^kbench load: $HOSTRE -c lf.txt \\(crc32 [0-9a-f]{8}, $nb bytes\\), rank 0 -c lf.txt \\(crc32 [0-9a-f]{8}, $na bytes\\): $TAIL" \
    -wdir "$WORK/a" $L -t 1 -c lf.txt 1 -- -wdir "$WORK/b" $L -t 1 -c lf.txt 1
differ "-c another loadfile" \
    "^kbench load: $HOSTRE -c $WORK/b/lf.txt \\(crc32 [0-9a-f]{8}, $nb bytes\\), rank 0 -c $WORK/a/lf.txt \\(crc32 [0-9a-f]{8}, $na bytes\\): $TAIL" \
    $L -t 1 -c "$WORK/a/lf.txt" 1 -- $L -t 1 -c "$WORK/b/lf.txt" 1
rm "$D/keep"

# --- ranks that agree run, however each wrote its options -----------------
# rank 1: -t and --warmup in other units, its lf.txt not on its "host"
# (the same name is enough: rank 0 sends the program); rank 2: the same
# bytes under another name
run timeout 120 $MPIRUN \
    -n 1 -wdir "$WORK/a" "$KBENCH" load --mpi -t 2 --warmup 0 -c lf.txt -D "$D" --json "$WORK/ag.json" 1 : \
    -n 1 -wdir "$WORK/none" "$KBENCH" load --mpi -t 2000ms --warmup 0s -c lf.txt -D "$D" 1 : \
    -n 1 "$KBENCH" load --mpi -t 2 --warmup 0 -c "$WORK/c/copy.txt" -D "$D" 1
expect_status "3 ranks that agree: exit 0" 0
expect_out_grep "the job's Throughput line" '^Throughput [0-9.]+ MB/sec  3 clients  3 procs  '
expect_eq "3 ranks replayed lf.txt" \
    "$(jget "$WORK/ag.json" '(d["ranks"], all(r["ops"] > 0 for r in d["results"]["per_rank"]))')" "(3, True)"
expect_empty_dir "every rank's tree cleaned" "$D"

# --- bad input on one rank: every rank exits 2 before a client starts -----
# (mpirun is told not to kill the other ranks when the first exits
# non-zero, so that each rank's own status can be seen); every rank is
# given -D run, which is there in the working directory of ranks 0 and 2
# and not in rank 1's, as a mount missing on one host would be
mkdir -p "$D/ok/run" "$D/bad"
run timeout 120 $MPIRUN --mca orte_abort_on_non_zero_status 0 -n 3 sh -c "
    r=$RANK
    if [ \$r = 1 ]; then cd \"\$D/bad\"; else cd \"\$D/ok\"; fi
    \"\$KBENCH\" load --mpi -t 5 -D run 1
    echo \$? >\"\$WORK/rc.\$r\""
expect_eq "every rank exits 2" "$(cat "$WORK/rc.0" "$WORK/rc.1" "$WORK/rc.2" 2>&1 | tr '\n' ' ')" "2 2 2 "
expect_lines "one line, naming rank 1 and its directory" -eq 1 "$WORK/err" \
    '^kbench load: rank 1 \([^)]+\): run: No such file or directory$'
expect_lines "no other line from kbench" -eq 1 "$WORK/err" '^kbench load'
expect_no_grep "no client started (no progress line)" "$WORK/out" ' sec  latency '
expect_empty_dir "the good ranks leave nothing" "$D/ok/run"
rm -r "$D/ok" "$D/bad"

# --- a client of rank 1 killed: the job stops, every rank cleans up -------
# mpi_bg MPIRUN: 3 ranks of a long run in the background (mpirun's pid in
# $BG), each rank's pid in $WORK/pid.R
mpi_bg() {
    rm -f "$WORK"/pid.*
    : >"$WORK/out"
    : >"$WORK/err"
    timeout 150 $1 -n 3 sh -c "echo \$\$ >\"\$WORK/pid.$RANK\"; exec \"\$KBENCH\" load --mpi -t 100 --warmup 0 -D \"\$D\" 1" \
        >"$WORK/out" 2>"$WORK/err" &
    BG=$!
}
mpi_bg "$MPIRUN"
if wait_progress 2 && [ -s "$WORK/pid.1" ] && c=$(pgrep -P "$(cat "$WORK/pid.1")"); then
    kill -9 $c
    wait "$BG"
    RC=$?
    expect_true "a client of rank 1 killed: the job ends non-zero, before the time limit (status $RC)" \
        [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ]
    expect_err_grep "rank 1 names the client" \
        "^kbench load: rank 1 \([^)]+\): client 0 \(pid $c\) was killed by signal 9"
    expect_out_grep "rank 0 says rank 1 stopped the job" '^rank 1 \([^)]+\) stopped the job early'
    expect_out_grep "and names the client" "^stopped because rank 1 \([^)]+\): client 0 \(pid $c\) was killed by signal 9"
    expect_empty_dir "every rank cleaned its tree" "$D"
else
    fail "the job under mpirun did not start" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi

# --- a rank killed mid-run: the job ends non-zero, the others clean up ----
# mpirun stops the other ranks with SIGTERM: they clean up before its SIGKILL
mpi_bg "$MPIRUN_SLOWKILL"
if wait_progress 2 && [ -s "$WORK/pid.1" ]; then
    kill -9 "$(cat "$WORK/pid.1")"
    wait "$BG"
    RC=$?
    expect_true "rank 1 killed: mpirun ends non-zero, before the time limit (status $RC)" \
        [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ]
    expect_true "ranks 0 and 2 cleaned their trees" [ ! -e "$D/rank0" ] && [ ! -e "$D/rank2" ]
else
    fail "the job under mpirun did not start" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi
rm -rf "$D/rank1"

# --- a rank that stops answering is declared dead after 10 s --------------
# the live ranks clean up before rank 0 ends the job; mpirun's SIGKILL
# then ends the stopped rank soon
mpi_bg "$MPIRUN --mca odls_base_sigkill_timeout 2"
if wait_progress 2 && [ -s "$WORK/pid.1" ]; then
    kill -STOP "$(cat "$WORK/pid.1")"
    wait "$BG"
    RC=$?
    expect_true "rank 1 stopped: the job ends non-zero, before the time limit (status $RC)" \
        [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ]
    expect_err_grep "rank 0 names the silent rank" \
        '^kbench load: rank 0 \([^)]+\): rank 1 \([^)]+\) did not answer for 10.0 s: the job stops$'
    expect_out_grep "no figure for a job that lost a rank" '^no results: the job lost a rank'
    expect_no_grep "no Throughput line" "$WORK/out" '^Throughput'
    expect_true "ranks 0 and 2 cleaned their trees" [ ! -e "$D/rank0" ] && [ ! -e "$D/rank2" ]
else
    fail "the job under mpirun did not start" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi
[ -s "$WORK/pid.1" ] && kill -9 "$(cat "$WORK/pid.1")" 2>/dev/null
rm -rf "$D/rank1"

finish
