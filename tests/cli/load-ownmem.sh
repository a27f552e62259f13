#!/bin/sh
# kbench - command-line tests: the run's own memory in every load document
# (results.own_memory): the program's bytes are the memfd's size, the
# parent's and the clients' peaks are at least what /proc showed of them
# during the run (within the kernel's counting), client.txt's program takes at most 16 bytes an op, and
# without --mem-limit nothing is said to be charged (load-memlimit.sh
# checks the figures under a limit)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

DISK=$(mktemp -d "${TMPDIR:-/tmp}/kbench-ownmem.XXXXXX")
trap 'rm -rf "$WORK" "$DISK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
S=$DATA/small.txt

# kib_of PID KEY: a /proc/PID/status figure (kB), or nothing
kib_of() {
    awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null
}

# memfd_of PID: the size of the process's memfd (the program), or nothing
memfd_of() {
    for fd in /proc/"$1"/fd/*; do
        case $(readlink "$fd" 2>/dev/null) in
        /memfd:kbench-program*) stat -L -c %s "$fd" 2>/dev/null && return 0 ;;
        esac
    done
    return 1
}

# ---- a run of 2 client processes, looked at while it goes ----
bg_load -c "$S" -t 600 --warmup 0 -D "$DISK" --json "$WORK/own.json" 2
if wait_progress; then
    pass "the run started"
else
    fail "the run started" "$(cat "$WORK/err")"
fi
MEMFD=$(memfd_of "$BG")
PARENT_HWM=$(kib_of "$BG" VmHWM)
CLIENT_HWM=0
for c in $(ps -o pid= --ppid "$BG"); do
    h=$(kib_of "$c" VmHWM)
    [ -n "$h" ] && [ "$h" -gt "$CLIENT_HWM" ] && CLIENT_HWM=$h
done
expect_true "the memfd was seen ($MEMFD bytes)" [ -n "$MEMFD" ]
expect_true "the processes' peaks were seen (parent $PARENT_HWM kB, client $CLIENT_HWM kB)" \
    [ -n "$PARENT_HWM" ] && [ "$CLIENT_HWM" -gt 0 ]
kill -INT "$BG"
wait "$BG"
RC=$?
expect_status "stopped by SIGINT: exit 130" 130
expect_no_grep "no limit: no own memory line" "$WORK/out" "own memory"
expect_py "own_memory: the memfd, the peaks seen, the processes" "$WORK/own.json" \
    "${MEMFD:-0}" "${PARENT_HWM:-0}" "$CLIENT_HWM" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["results"]["own_memory"]
memfd, parent_kib, client_kib = (int(x) for x in sys.argv[2:5])
assert o["program_bytes"] == memfd > 0, (o, memfd)
# small.txt: 15 ops
assert abs(o["program_bytes_per_op"] - memfd / 15) < 1e-9, o
assert 2 <= o["program_bytes_per_op"] <= 16, o
# peaks only grow: the document's are at least what /proc showed during
# the run, less what the kernel's RSS counters may lag (per-CPU counts,
# folded in batches: a process's figure can differ by tens of pages
# between two readers; 256 KiB allowed), and a process of kbench stays
# far below a GiB
SLACK = 256 * 1024
assert parent_kib * 1024 - SLACK <= o["parent_peak_bytes"] < 1 << 30, (o, parent_kib)
assert client_kib * 1024 - SLACK <= o["client_peak_bytes"] < 1 << 30, (o, client_kib)
assert o["client_procs"] == 2, o
# the loadfile was parsed in a process of its own (kbench-parse), which ran
# kbench and the C library: its peak RSS is some hundreds of KiB at least
assert 256 * 1024 <= o["parse_peak_bytes"] < 1 << 30, o
assert o["client_peak_bytes"] <= o["client_peak_sum_bytes"] <= 2 * o["client_peak_bytes"], o
# the clients wrote their slots: some pages, at most the two slots
assert 4096 <= o["shared_bytes"] <= 2 * 1048576, o
assert o["arena_bytes"] > 0, o
assert o["charged_bytes"] is None, o
PY

# ---- one process for 3 clients: one peak ----
expect_rc "--clients-per-process 3" 0 "$KBENCH" load -c "$S" --run-once --clients-per-process 3 \
    -q -D "$DISK" --json "$WORK/cpp.json" 3
expect_true "one client process counted" \
    [ "$(jget "$WORK/cpp.json" 'd["results"]["own_memory"]["client_procs"]')" = 1 ]

# ---- client.txt, dbench's op mix: at most 16 bytes an op ----
expect_rc "client.txt" 0 "$KBENCH" load -c client.txt -t 1 --warmup 0 -q -D "$DISK" \
    --json "$WORK/client.json" 1
NOPS=$("$KBENCH" load --check "$KBENCH_TOP_SRCDIR/loadfiles/client.txt" |
    sed -n 's/^lines: *[0-9]* (\([0-9]*\) operations.*/\1/p')
expect_py "client.txt: at most 16 bytes an op" "$WORK/client.json" "${NOPS:-0}" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["results"]["own_memory"]
nops = int(sys.argv[2])
assert nops > 40000, nops
assert o["program_bytes"] <= 16 * nops, (o, nops)
assert abs(o["program_bytes_per_op"] - o["program_bytes"] / nops) < 1e-9, (o, nops)
PY
expect_empty_dir "files cleaned up" "$DISK"

finish
