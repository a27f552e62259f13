#!/bin/sh
# kbench - command-line tests: kbench as dbench, run as LKP, mmtests and
# the Phoronix Test Suite run dbench, parsed as they parse it, beside
# Debian's dbench on the same work: the same fields, of the same types,
# with the same amounts (clients, procs); failures print no figure
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compat-lib.sh"
# -B smb's libsmbclient keeps talloc memory to the end, and its dynamic
# TLS needs the sanitizer's __tls_get_addr interceptor off (as load-smb.sh)
LSAN_OPTIONS="${LSAN_OPTIONS:-}${LSAN_OPTIONS:+:}suppressions=$KBENCH_TOP_SRCDIR/tests/cli/lsan-libsmbclient.supp:print_suppressions=0"
export LSAN_OPTIONS
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}intercept_tls_get_addr=0"
export ASAN_OPTIONS

SMALL=$DATA/small.txt
DEB_LF=/usr/share/dbench/client.txt
HAVE_DEB=
if command -v dbench >/dev/null 2>&1 && [ -r "$DEB_LF" ]; then HAVE_DEB=1; fi
# the real dbench, when it is there: by its path, never the link
DEB=$(command -v dbench 2>/dev/null)
LF=$SMALL
if [ -n "$HAVE_DEB" ]; then LF=$DEB_LF; fi

# in_dir DIR CMD...: run CMD in a new directory DIR under $WORK (dbench
# runs in the current directory by default)
in_dir() {
    d=$WORK/$1
    shift
    mkdir -p "$d"
    (cd "$d" && exec "$@") >"$WORK/out" 2>"$WORK/err"
    RC=$?
}

# ---- LKP: dbench $nr_threads -c loadfile (with -t: LKP's default is 600 s) ----
in_dir lkp "$B/dbench" -t 2 2 -c "$LF"
expect_status "LKP: status 0" 0
lkp_parse "$WORK/out" >"$WORK/lkp.k"
expect_eq "LKP: one Throughput record" "$(wc -l <"$WORK/lkp.k")" 1
expect_eq "LKP: fields MB/s clients procs max_latency" "$(shape <"$WORK/lkp.k")" "float int int float"
expect_eq "LKP: 2 clients, 2 procs" "$(awk '{ print $2, $3 }' "$WORK/lkp.k")" "2 2"
expect_empty_dir "LKP: dbench's default -D . is cleaned up" "$WORK/lkp"
expect_out_grep "the second's line is dbench's" \
    '^   2  +[0-9]+  +[0-9]+\.[0-9]{2} MB/sec  execute +[0-9]+ sec  latency [0-9]+\.[0-9]{3} ms$'
expect_out_grep "dbench's table heading" '^ Operation      Count    AvgLat    MaxLat$'
expect_no_grep "no kbench-only column" "$WORK/out" 'P50|P99| avg '
if [ -n "$HAVE_DEB" ]; then
    in_dir lkp-deb "$DEB" -t 2 2 -c "$LF"
    expect_status "LKP: Debian's dbench: status 0" 0
    lkp_parse "$WORK/out" >"$WORK/lkp.d"
    expect_eq "LKP: the same fields as Debian's dbench" "$(shape <"$WORK/lkp.k")" "$(shape <"$WORK/lkp.d")"
    expect_eq "LKP: the same clients and procs as Debian's dbench" \
        "$(awk '{ print $2, $3 }' "$WORK/lkp.k")" "$(awk '{ print $2, $3 }' "$WORK/lkp.d")"
    # dbench's NPROCS are processes: clients = NPROCS x --clients-per-process
    in_dir cpp "$B/dbench" -t 2 --clients-per-process 2 2 -c "$LF"
    lkp_parse "$WORK/out" >"$WORK/cpp.k"
    in_dir cpp-deb "$DEB" -t 2 --clients-per-process 2 2 -c "$LF"
    lkp_parse "$WORK/out" >"$WORK/cpp.d"
    expect_eq "--clients-per-process 2: 4 clients 2 procs, as Debian's" \
        "$(awk '{ print $2, $3 }' "$WORK/cpp.k")/$(awk '{ print $2, $3 }' "$WORK/cpp.d")" "4 2/4 2"
else
    skip "Debian's dbench and its client.txt are not installed: no side-by-side run"
fi

# ---- the Phoronix Test Suite: dbench N -c client.txt, "Throughput #_RESULT_# MB/sec" ----
in_dir pts "$B/dbench" -t 2 1 -c "$LF"
expect_status "PTS: status 0" 0
expect_eq "PTS: one result, a number" "$(pts_dbench "$WORK/out" | shape)" "float"
if [ -n "$HAVE_DEB" ]; then
    in_dir pts-deb "$DEB" -t 2 1 -c "$LF"
    expect_eq "PTS: Debian's dbench gives the same field" "$(pts_dbench "$WORK/out" | shape)" "float"
fi

# ---- mmtests: a warm-up pass, then the timed run on the same -D ----
M=$WORK/mm
mkdir -p "$M"
run "$B/dbench" --run-once --skip-cleanup -D "$M" --loadfile "$SMALL" 2
expect_status "mmtests warm-up: status 0" 0
expect_true "mmtests warm-up: its trees are left (--skip-cleanup)" test -d "$M/clients/client1"
run "$B/dbench" -t 3 --loadfile "$SMALL" --show-execute-time -D "$M" 2
expect_status "mmtests run on the warm-up's -D: status 0" 0
mmtests_exec "$WORK/out" >"$WORK/mm.exec"
expect_true "mmtests: execute lines, fields 3 and 6 are MB/sec and 1, 2, 3..." consecutive "$WORK/mm.exec"
expect_eq "mmtests: execute fields are float, int" "$(shape <"$WORK/mm.exec" | sort -u)" "float int"
mmtests_passes "$WORK/out" >"$WORK/mm.pass"
expect_true "mmtests: completed-in lines" test -s "$WORK/mm.pass"
expect_eq "mmtests: completed-in fields 4 and 8 are ms" "$(shape <"$WORK/mm.pass" | sort -u)" "int int"
expect_true "mmtests: a pass ends after it began (field 8 >= field 4)" \
    awk '$2 < $1 { exit 1 }' "$WORK/mm.pass"
expect_eq "mmtests: the timed run's figure" "$(lkp_parse "$WORK/out" | shape)" "float int int float"
if [ -n "$HAVE_DEB" ]; then
    run "$DEB" -t 3 -D "$WORK/lkp-deb" --loadfile "$LF" 2
    mmtests_exec "$WORK/out" >"$WORK/mm.deb"
    expect_true "mmtests: Debian's execute lines, fields 3 and 6 as ours" consecutive "$WORK/mm.deb"
    expect_eq "mmtests: the same execute fields as Debian's dbench" \
        "$(shape <"$WORK/mm.deb" | sort -u)" "$(shape <"$WORK/mm.exec" | sort -u)"
fi
# one pass per client: one completed-in line per client, clients 0 and 1
run "$B/dbench" --run-once --show-execute-time -D "$M" --loadfile "$SMALL" 2
expect_status "--run-once --show-execute-time: status 0" 0
expect_eq "--run-once: one completed-in line per client" \
    "$(awk '/completed in/ { print $1 }' "$WORK/out" | sort | tr '\n' ' ')" "0 1 "
run "$B/dbench" --run-once --machine-readable -D "$M" --loadfile "$SMALL" 3
expect_status "--machine-readable: status 0" 0
expect_lines "--machine-readable: an @E@ record per client pass" -eq 3 "$WORK/out" '^@E@[0-2]@[0-9]+$'
expect_no_grep "--machine-readable: no completed-in line" "$WORK/out" 'completed in'
run "$B/dbench" -t 2 --machine-readable -D "$M" --loadfile "$SMALL" 1
expect_status "--machine-readable -t 2: status 0" 0
awk -F@ '$2 == "R" { print $3, $6, NF }' "$WORK/out" >"$WORK/mr"
expect_eq "--machine-readable: @R@clients@lines@MB/sec@second@latency records, seconds 1, 2..." \
    "$(awk '{ print $1, $3 }' "$WORK/mr" | sort -u)/$(consecutive "$WORK/mr" && echo 1..)" "1 8/1.."
expect_lines "--machine-readable: the last record, ;MB/sec;clients;procs;max_latency;" -eq 1 "$WORK/out" '^;[0-9.e+]+;1;1;[0-9]+\.[0-9]{3};$'
expect_no_grep "--machine-readable: no Throughput line" "$WORK/out" '^Throughput'
expect_file_grep "--machine-readable: op rows :name:count:avg:max:" "$WORK/out" '^:NTCreateX:[0-9]+:[0-9.]+:[0-9.]+:$'

expect_no_grep "--machine-readable: no human line a second" "$WORK/out" 'MB/sec  execute'

# ---- op names: Debian's dbench 4.00's short ones, mmtests' dbench's long
# ones when mmtests' options say it runs (mmtests reads op-NAME rows) ----
run "$B/dbench" -t 2 --warmup 0 --show-execute-time -D "$M" --loadfile "$DATA/allops.txt" 1
expect_status "mmtests' options: status 0" 0
mmtests_ops "$WORK/out" | awk '{ print $1 }' | sort >"$WORK/ops.mm"
# mmtests' dbench (fileio.c) names each op as the loadfile does
expect_eq "mmtests' op rows: its dbench's names" "$(tr '\n' ' ' <"$WORK/ops.mm")" \
    "Close Deltree FIND_FIRST Flush Mkdir NTCreateX QUERY_FILE_INFORMATION QUERY_FS_INFORMATION QUERY_PATH_INFORMATION ReadX Rename Rmdir SET_FILE_INFORMATION Unlink WriteX "
expect_out_grep "mmtests' table heading" '^ Operation                Count    AvgLat    MaxLat$'
run "$B/dbench" -t 2 -D "$M" --loadfile "$DATA/allops.txt" 1
expect_status "dbench 4.00's options: status 0" 0
expect_eq "dbench 4.00's table: its short names" \
    "$(mmtests_ops "$WORK/out" | awk '{ print $1 }' | grep -c -E '^(Qpathinfo|Qfileinfo|Qfsinfo|Sfileinfo|Find)$')" 5
if [ -n "$HAVE_DEB" ]; then
    in_dir ops-deb "$DEB" -t 2 1 -c "$DEB_LF"
    mmtests_ops "$WORK/out" | awk '{ print $1 }' | sort >"$WORK/ops.deb"
    in_dir ops-k "$B/dbench" -t 2 1 -c "$DEB_LF"
    mmtests_ops "$WORK/out" | awk '{ print $1 }' | sort >"$WORK/ops.k"
    expect_same_file "dbench 4.00's table: Debian's dbench's names on its client.txt" \
        "$WORK/ops.k" "$WORK/ops.deb"
fi

# ---- no execute line for the second the time limit ends (dbench: -t 3
# gives seconds 1 and 2) ----
run "$B/dbench" -t 3 --warmup 0 -D "$M" --loadfile "$SMALL" 1
expect_status "-t 3: status 0" 0
expect_eq "-t 3: execute lines for seconds 1 and 2" "$(mmtests_exec "$WORK/out" | awk '{ print $2 }' | tr '\n' ' ')" "1 2 "

# ---- --json under the personality: how the lines were measured ----
in_dir js "$B/dbench" -t 2 --json "$WORK/d.json" 1 -c "$SMALL"
expect_status "--json: status 0" 0
expect_eq "--json: the output form is named" "$(jget "$WORK/d.json" 'd["output_form"]["form"]')" dbench
expect_eq "--json: its Throughput is the document's" \
    "$(pts_dbench "$WORK/out")" "$(jget "$WORK/d.json" '"%g" % d["results"]["throughput_MBps"]')"
expect_eq "--json: dbench's warm-up of a fifth of -t, whole seconds" \
    "$(jget "$WORK/d.json" 'd["params"]["warmup_s"], d["params"]["timelimit_s"]')" "(0.0, 2.0)"

# ---- a failed or interrupted run prints no figure and exits non-zero ----
in_dir bad "$B/dbench" -t 2 1 -c "$DATA/wrong-expect.txt"
expect_status "errors in the run: status 1" 1
expect_eq "errors: nothing for LKP's parser" "$(lkp_parse "$WORK/out")" ""
expect_out_grep "errors: said" '^kbench: no throughput figure: stopped at the first error'
mkdir -p "$WORK/int"
# a background job of this shell starts with SIGINT ignored: given its
# default action here, as an interactive shell's job has it
(cd "$WORK/int" && exec env --default-signal=INT "$B/dbench" -t 60 --per-client-results 1 \
    -c "$SMALL") >"$WORK/out" 2>"$WORK/err" &
P=$!
wait_until 120 grep -q 'execute' "$WORK/out"
kill -INT "$P"
wait "$P"
RC=$?
expect_status "SIGINT: status 130" 130
expect_eq "SIGINT: nothing for LKP's or PTS's parser" "$(lkp_parse "$WORK/out")$(pts_dbench "$WORK/out")" ""
expect_out_grep "SIGINT: said" '^kbench: no throughput figure: interrupted by SIGINT'
# dbench dies by the signal: no table for mmtests' grep -A 99 Operation
# to read, no per-client line
expect_eq "SIGINT: no table, nothing for mmtests' op rows" "$(mmtests_ops "$WORK/out")" ""
expect_no_grep "SIGINT: no per-client line" "$WORK/out" '^Client '

# SIGINT ignored when it starts (a background job of a shell without job
# control): it stays ignored, as dbench keeps it; the run ends with its figure
mkdir -p "$WORK/ign"
(cd "$WORK/ign" && exec "$B/dbench" -t 3 1 -c "$SMALL") >"$WORK/out" 2>"$WORK/err" &
P=$!
wait_until 120 grep -q 'execute' "$WORK/out"
IGN=$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$P/status")
expect_eq "SIGINT ignored at the start: ignored still (SigIgn bit 2)" "$(( 0x$IGN & 2 ))" 2
kill -INT "$P"
wait "$P"
RC=$?
expect_status "SIGINT ignored at the start: the run completes, status 0" 0
expect_eq "SIGINT ignored at the start: its figure" "$(pts_dbench "$WORK/out" | shape)" float

# ---- a failed op stops the run at once, as dbench's "Child failed" ----
M2=$WORK/mm2
mkdir -p "$M2"
run "$B/dbench" -t 60 --warmup 0 --show-execute-time -D "$M2" --loadfile "$DATA/wrong-expect.txt" 1
expect_status "a failed op: status 1" 1
expect_eq "a failed op: the first pass never completes (no completed-in line)" \
    "$(mmtests_passes "$WORK/out")" ""
expect_eq "a failed op: no table, nothing for mmtests' op rows" "$(mmtests_ops "$WORK/out")" ""
expect_out_grep "a failed op: said, with the loadfile's line" 'wrong-expect\.txt:4: QUERY_PATH_INFORMATION'
if [ -n "$HAVE_DEB" ]; then
    in_dir bad-deb "$DEB" -t 60 1 -c "$DATA/wrong-expect.txt"
    expect_status "a failed op: Debian's dbench's status too" 1
fi

# ---- bad input: one line, status 2, nothing run ----
# no NPROCS and NPROCS 0: dbench's words and statuses (1 and 0), nothing run
in_dir none "$B/dbench" -t 2
expect_status "no NPROCS: dbench's status 1" 1
expect_out_grep "no NPROCS: dbench's words" '^You need to specify NPROCS$'
in_dir zero "$B/dbench" 0
expect_status "NPROCS 0: dbench's status 0" 0
expect_err_grep "NPROCS 0: dbench's words" '^create 0 procs\?  you must be kidding\.$'
expect_empty_dir "NPROCS 0: nothing run" "$WORK/zero"
if [ -n "$HAVE_DEB" ]; then
    in_dir none-deb "$DEB" -t 2
    expect_status "no NPROCS: Debian's dbench's status" 1
    in_dir zero-deb "$DEB" -t 1 0
    expect_status "NPROCS 0: Debian's dbench's status" 0
fi
expect_bad "NPROCS x" '^dbench: NPROCS must be a whole number' "$B/dbench" x
expect_bad "--fake-io" '^dbench: --fake-io would time no I/O' "$B/dbench" --fake-io 1
expect_bad "-B nfs --protocol udp" '^dbench: --protocol udp' "$B/dbench" -B nfs --protocol udp 1
expect_bad "-B iscsi" '^dbench: -B iscsi' "$B/dbench" -B iscsi 1
# dbench 5's backends and their target options, as kbench load's: the
# target each names (unreachable here: nothing starts)
if "$KBENCH" load -B nfs --check "$SMALL" >/dev/null 2>&1; then
    expect_bad "-B nfs --server --export: nfs://SERVER/EXPORT" \
        '^dbench: --nfs nfs://nohost\.invalid/x: cannot mount' \
        "$B/dbench" -B nfs --server nohost.invalid --export /x -t 1 1
else
    skip "this kbench was built without libnfs: no -B nfs"
fi
if "$KBENCH" load -B smb --check "$SMALL" >/dev/null 2>&1; then
    expect_bad "-B smb --smb-share --smb-user: the share, the user, no password" \
        '^dbench: -B smb: //nohost\.invalid/s as u: ' \
        "$B/dbench" -B smb --smb-share //nohost.invalid/s --smb-user 'u%secret' -t 1 1
    expect_no_grep "-B smb: the password is not shown" "$WORK/err" secret
else
    skip "this kbench was built without libsmbclient: no -B smb"
fi
expect_bad "-B sockio SERVER" "^dbench: --server nohost\\.invalid: cannot resolve" \
    "$B/dbench" -B sockio -t 1 1 nohost.invalid
expect_bad "tbench N SERVER is -B sockio" "^tbench: --server nohost\\.invalid: cannot resolve" \
    "$B/tbench" -t 1 1 nohost.invalid
expect_bad "kbench load --output-form xml" "^kbench load: unknown --output-form 'xml'" \
    "$KBENCH" load --output-form xml 1
expect_bad "-t 1.5 (dbench's -t is whole seconds)" '^dbench: -t must be a whole number' "$B/dbench" -t 1.5 1
finish
