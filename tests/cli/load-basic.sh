#!/bin/sh
# kbench - command-line tests: kbench load runs, prints, counts and cleans up
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

# --- the shipped loadfile, 2 clients: the lines, the table, the JSON -------
kload -t 2 --warmup 1 -D "$D" --json "$WORK/r.json" 2
expect_status "default run exits 0" 0
expect_lines "a progress line a second" -ge 2 "$WORK/out" \
    '^ +2 +[0-9]+ +[0-9.]+ MB/sec +avg +([0-9.]+|-) +(warmup|execute|cleanup) +[0-9]+ sec +latency [0-9.]+ ms$'
expect_out_grep "table header" '^ Operation +Count +AvgLat +P50 +P99 +MaxLat$'
expect_out_grep "ReadX row" '^ ReadX +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$'
expect_out_grep "Throughput line in dbench form" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency=[0-9]+\.[0-9]{3} ms$'
expect_empty_dir "directory left empty" "$D"
expect_empty_file "nothing on stderr" "$WORK/err"

expect_eq "JSON parses, kind load" "$(jget "$WORK/r.json" 'd["kind"]' 2>&1)" load
keys=$(jget "$WORK/r.json" 'all(k in d["results"] for k in ("throughput_MBps","max_latency_ms","errors","ops")) and all(k in d["params"] for k in ("clients","timelimit_s","warmup_s","loadfile","directory","sync_open","sync_dirs")) and all(k in d["system"] for k in ("kernel","hostname","cpu_model","cpus_online","mem_total_kB","fs_type")) and all(set(o)=={"name","count","avg_ms","p50_ms","p99_ms","max_ms"} for o in d["results"]["ops"])')
expect_eq "JSON has the documented keys" "$keys" True
# the printed throughput is the JSON one, and is bytes / 10^6 / seconds
printed=$(sed -n 's/^Throughput \([0-9.e+]*\) MB.*/\1/p' "$WORK/out")
same=$(jget "$WORK/r.json" "abs(d['results']['throughput_MBps'] - $printed) <= 1e-5 * $printed + 1e-9 and abs(d['results']['bytes'] / 1e6 / d['results']['measured_s'] - d['results']['throughput_MBps']) < 1e-6 * d['results']['throughput_MBps'] + 1e-9")
expect_eq "Throughput = bytes / 10^6 / measured seconds (printed $printed)" "$same" True
sum=$(jget "$WORK/r.json" 'sum(o["count"] for o in d["results"]["ops"]) == d["results"]["ops_total"] and abs(d["results"]["measured_s"] - 2.0) < 1e-6')
expect_eq "op counts add up; window is 2.0 s" "$sum" True
maxl=$(jget "$WORK/r.json" 'abs(max(o["max_ms"] for o in d["results"]["ops"]) - d["results"]["max_latency_ms"]) < 1e-9')
expect_eq "max_latency is the largest single op" "$maxl" True
# steal over the window: a share of one CPU's time, known where /proc/stat has it
steal=$(jget "$WORK/r.json" '(lambda st, known: (isinstance(st, float) and 0 <= st <= 100) if known else st is None)(d["results"]["steal_pct"], len(open("/proc/stat").readline().split()) >= 9)' 2>&1)
expect_eq "steal_pct is a share of a CPU's time (null where /proc/stat has no steal)" "$steal" True

# --- --json - : standard output carries the JSON alone -------------------
kload -t 1 --warmup 0 -c "$DATA/small.txt" -D "$D" --json - 1
expect_py "--json -: stdout is one JSON document" "$WORK/out" <<'EOF'
import json, sys
json.load(open(sys.argv[1]))
EOF
expect_err_grep "--json -: the text goes to stderr" '^Throughput [0-9.]+ MB/sec  1 clients  1 procs  '

# --- exact accounting: --run-once of a small loadfile, 3 clients ----------
kload -q --run-once -c "$DATA/small.txt" -D "$D" --json "$WORK/s.json" 3
expect_status "run-once exits 0" 0
expect_eq "run-once: 3 x 15000 bytes, 3 x 15 ops, no errors" \
    "$(jget "$WORK/s.json" '(d["results"]["bytes"], d["results"]["ops_total"], d["results"]["errors"], d["results"]["passes"])')" \
    "(45000, 45, 0, 3)"
expect_eq "per-op counts" "$(jget "$WORK/s.json" '{o["name"]: o["count"] for o in d["results"]["ops"]}')" \
    "{'NTCreateX': 6, 'Close': 3, 'Rename': 3, 'Unlink': 3, 'Deltree': 3, 'Mkdir': 3, 'Qpathinfo': 3, 'Qfileinfo': 3, 'Find': 6, 'WriteX': 6, 'ReadX': 6}"
expect_empty_dir "run-once leaves the directory empty" "$D"

# --- errors against loadfile lines: counted, listed, run goes on, exit 1 ----
kload -q --run-once -c "$DATA/wrong-expect.txt" -D "$D" --json "$WORK/w.json" 1
expect_status "unexpected outcomes exit 1" 1
expect_out_grep "error names line 4" 'wrong-expect.txt:4: QUERY_PATH_INFORMATION expected failure, succeeded \(1 times\)'
expect_out_grep "error names line 5" 'wrong-expect.txt:5: QUERY_PATH_INFORMATION expected success, failed: No such file or directory \(1 times\)'
expect_eq "the run went on after errors" "$(jget "$WORK/w.json" '(d["results"]["errors"], d["results"]["ops_total"])')" "(2, 4)"
kload -q --run-once --strict -c "$DATA/wrong-expect.txt" -D "$D" 1
expect_status "--strict exits 1" 1
expect_out_grep "--strict says it stopped" 'stopped at the first error'
kload -q --run-once -c "$DATA/badhandle.txt" -D "$D" 1
expect_status "a handle never opened is an error" 1
expect_out_grep "bad handle reported" 'badhandle.txt:2: ReadX expected success, failed: Bad file descriptor'
expect_empty_dir "directory empty after errors" "$D"

# --- CRLF and a last line without newline -----------------------------------
kload -q --run-once -c "$DATA/crlf-nonl.txt" -D "$D" --json "$WORK/c.json" 1
expect_eq "CRLF, no final newline: both lines run" "$(jget "$WORK/c.json" 'd["results"]["ops_total"]')" 2

# --- timestamps are honoured and lateness shown -----------------------------
start=$(date +%s%N)
kload -q --run-once -c "$DATA/timed.txt" -D "$D" 2
end=$(date +%s%N)
expect_status "timed loadfile exits 0" 0
expect_true "timed ops wait for their time (>= 0.8 s)" [ $(( (end - start) / 1000000 )) -ge 800 ]
expect_out_grep "schedule line" '^schedule: (every timed op started on time|[0-9]+ timed ops started late)'

# --- interleaved clients: four in one process, each sleeping, all replay --
# (that they keep their schedule side by side is a timing claim, judged
# on an idle machine by bench/timing-claims)
printf 'Sleep 500000 *\n0.500 Mkdir "\\clients\\client1\\s" NT_STATUS_OK\nRmdir "\\clients\\client1\\s" NT_STATUS_OK\n' >"$WORK/sleepy.txt"
kload -q --run-once --clients-per-process 4 -c "$WORK/sleepy.txt" -D "$D" --json "$WORK/t4.json" 4
expect_status "4 sleeping clients in one process: exit 0" 0
expect_eq "4 sleeping clients in one process: every pass replayed (passes, errors, clients)" \
    "$(jget "$WORK/t4.json" '(d["results"]["passes"], d["results"]["errors"], d["params"]["clients"])')" "(4, 0, 4)"
printf 'Mkdir "\\clients\\client1\\f" NT_STATUS_OK\n' >"$WORK/mk.txt"
printf 'NTCreateX "\\clients\\client1\\f" 0x0 0x2 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nMkdir "\\clients\\client1\\f" NT_STATUS_OK\nUnlink "\\clients\\client1\\f" 0 NT_STATUS_OK\n' >"$WORK/mkfile.txt"
kload -q --run-once -c "$WORK/mkfile.txt" -D "$D" 1
expect_out_grep "Mkdir over a file is an error" 'mkfile.txt:3: Mkdir expected success, failed: Not a directory'

# --- options: clients per process, per-client results, sync, xattr, rate ----
kload -q -t 1 --warmup 0 --clients-per-process 2 --per-client-results -c "$DATA/small.txt" -D "$D" 4
expect_status "--clients-per-process runs" 0
expect_out_grep "4 clients in 2 procs" '^Throughput [0-9.]+ MB/sec  4 clients  2 procs  '
expect_lines "--per-client-results: a line per client" -eq 4 "$WORK/out" '^ client [0-3] +[0-9.]+ MB/sec$'
kload -q -t 1 --warmup 0 -s -S -F -x -c "$DATA/small.txt" -D "$D" 1
expect_status "-s -S -F -x run without errors" 0
expect_out_grep "sync noted in the Throughput line, as dbench" '^Throughput [0-9.]+ MB/sec \(sync open\) \(sync dirs\)  1 clients  1 procs  '
# -R: a client may never get ahead of the rate (by more than the one op
# that crossed it, 4500 bytes here); how close it stays below it depends
# on the machine's load (bench/timing-claims)
kload -q -t 2 --warmup 0 -R 0.5 -c "$DATA/small.txt" -D "$D" --json "$WORK/rate.json" 1
expect_status "-R 0.5: exit 0" 0
expect_py "-R 0.5: never more than 0.5 MB/sec" "$WORK/rate.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert 0 < r["bytes"] <= 0.5e6 * r["measured_s"] + 4500, (r["bytes"], r["measured_s"])
EOF
# one pass, a fixed 15000 bytes, at 0.01 MB/sec: it cannot end sooner than 1.5 s
kload -q --run-once -R 0.01 -c "$DATA/small.txt" -D "$D" --json "$WORK/rate1.json" 1
expect_status "-R 0.01: exit 0" 0
expect_eq "-R 0.01: one pass of 15000 bytes takes 1.5 s or more (bytes, measured >= 1.5)" \
    "$(jget "$WORK/rate1.json" '(d["results"]["bytes"], d["results"]["measured_s"] >= 1.5)')" "(15000, True)"
expect_empty_dir "directory empty after option runs" "$D"

# --- what was there before stays; the default directory goes ---------------
echo keep >"$D/keep.txt"
mkdir "$D/mine"
kload -q -t 1 --warmup 0 -D "$D" 1
expect_status "run beside existing files" 0
expect_eq "existing entries kept, run's own removed" "$(ls -A "$D" | tr '\n' ' ')/$(cat "$D/keep.txt")" "keep.txt mine /keep" \
    "$(ls -lA "$D")"
mkdir "$WORK/tmp"
TMPDIR="$WORK/tmp" run "$KBENCH" load -q -t 1 --warmup 0 1
expect_status "run in a default directory" 0
expect_empty_dir "default directory removed" "$WORK/tmp"
kload -q -t 1 --warmup 0 --skip-cleanup -D "$WORK/kept" 1
expect_status "a missing -D directory is refused" 2
expect_true "and not made" [ ! -e "$WORK/kept" ]
mkdir -p "$WORK/kept2"
kload -q -t 1 --warmup 0 --skip-cleanup -D "$WORK/kept2" 1
expect_eq "--skip-cleanup keeps the tree" "$(ls "$WORK/kept2/clients" 2>&1)" client0 "$(ls -R "$WORK/kept2" 2>&1)"

# --- Debian's dbench client.txt runs unchanged, without errors --------------
if [ -r /usr/share/dbench/client.txt ]; then
    D="$WORK/dbench-dir"
    mkdir -p "$D"
    kload -q -t 2 --warmup 1 -c /usr/share/dbench/client.txt -D "$D" --json "$WORK/d.json" 2
    expect_status "dbench's client.txt runs" 0
    expect_eq "dbench's client.txt: no errors, MB/sec > 0" \
        "$(jget "$WORK/d.json" '(d["results"]["errors"], d["results"]["throughput_MBps"] > 0)')" "(0, True)" \
        "$(head -30 "$WORK/out")"
    expect_empty_dir "directory empty after client.txt" "$D"
else
    skip "dbench's client.txt (install Debian's dbench package)"
fi

finish
