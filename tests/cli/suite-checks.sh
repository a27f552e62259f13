#!/bin/sh
# kbench - command-line tests: kbench suite refuses a series that cannot
# succeed before its first run (memory under --mem-limit, the disk, a
# micro test's tools, options this kbench's load lacks), passes load and
# micro options through, runs without load (--clients none), and puts
# disk and micro runs under --mem-limit in a memory cgroup of their own
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
LF="$KBENCH_TOP_SRCDIR/loadfiles/smallfiles.txt"
D=$WORK/dir
mkdir -p "$D"
truncate -s 16M disk.img

# ---- what no system can give: refused before anything runs ----
# a loadfile that cannot be read: said once, with where the default is
# looked for, not as a failed run of every load job
expect_bad "the default loadfile missing" \
    "^kbench suite: the loadfile $WORK/nowhere/client\\.txt cannot be read: No such file or directory \\(the default one: give -c FILE, or set KBENCH_LOADFILE_DIR to the directory of kbench's loadfiles\\); nothing was run\$" \
    env KBENCH_LOADFILE_DIR="$WORK/nowhere" "$KBENCH" suite --pause 0 --clients 1 --runs 1 -t 1 \
    -D "$D" -o nolf.json
expect_bad "a loadfile given that is not there" \
    "^kbench suite: -c $WORK/none\\.txt: kbench load --check refuses it: kbench load: $WORK/none\\.txt: cannot open loadfile: No such file or directory\$" \
    "$KBENCH" suite --pause 0 --clients 1 --runs 1 -t 1 -D "$D" -c "$WORK/none.txt" -o nolf.json
expect_true "no results file from either" test ! -e nolf.json
# 10 clients under 4M: kbench load's own floor, 512 KiB a process and each
# client's I/O buffer; before, the series ran its 1-client runs first
expect_bad "10 clients under 4M" '^kbench suite: load 10 mem=4M: --mem-limit 4M is below the [0-9.]+ MiB \(2\^20 bytes\) 10 clients need to start \(512 KiB a client process, plus each client.s [0-9]+-byte I/O buffer\); nothing was run$' \
    "$KBENCH" suite -D "$D" -c "$LF" --clients 1,10 --runs 3 -t 1 --pause 1 --mem-limit none,4M -o m.json
expect_true "10 clients under 4M: no results file" test ! -e m.json
expect_true "10 clients under 4M: nothing in DIR" test -z "$(ls -A "$D")"
suite_line=$(cat "$WORK/err")
expect_rc "kbench load's own refusal" 2 "$KBENCH" load -D "$D" -c "$LF" --mem-limit 4M 10
expect_eq "the same floor as kbench load's" \
    "$(echo "$suite_line" | grep -Eo 'below the [0-9.]+ MiB')" \
    "$(grep -Eo 'below the [0-9.]+ MiB' "$WORK/err")" "$suite_line"
expect_true "the floor is 10 x (512 KiB + the largest I/O)" python3 - "$suite_line" <<'EOF'
import re, sys
m = re.search(r"below the ([0-9.]+) MiB .* client.s ([0-9]+)-byte", sys.argv[1])
want = 10 * (512 * 2**10 + int(m.group(2))) / 2**20
sys.exit(abs(float(m.group(1)) - want) > 0.005)
EOF
expect_bad "10 clients 4 a process (3 processes) under 1M do not pass" \
    '^kbench suite: load 10 mem=1M: --mem-limit 1M is below the 1\.[0-9]+ MiB ' \
    "$KBENCH" suite -D "$D" -c "$LF" --clients 10 --clients-per-process 4 --runs 1 -t 1 --pause 0 --mem-limit 1M -o m.json
expect_bad "a disk run under 4M" '^kbench suite: disk -T mem=4M: --mem-limit 4M is below the 6\.00 MiB \(2\^20 bytes\) one kbench disk process needs to start; nothing was run$' \
    "$KBENCH" suite --disk disk.img --clients none --runs 1 --pause 0 --mem-limit 4M -o m.json
mkdir empty-path
expect_bad "a micro test's tool missing" '^kbench suite: micro: the byte_shell tests need sort, which is not in PATH; nothing was run$' \
    env PATH="$WORK/empty-path" "$KBENCH" suite --clients none --micro=byte_shell1 --runs 1 --pause 0 -o m.json
expect_bad "a micro test this kbench lacks" "^kbench suite: --micro: this kbench's micro has no test 'lat_nosuch' \\(kbench micro --list names them\\)\$" \
    "$KBENCH" suite --clients none --micro=lat_syscall_null,lat_nosuch --runs 1 --pause 0 -o m.json
for b in "nfs --nfs" "smb --smb-share" "sockio --server"; do
    set -- $b
    expect_bad "-B $1 without its $2: refused before the first run" "^kbench suite: -B $1 needs $2 " \
        "$KBENCH" suite -B "$1" --clients 1 -t 1 --runs 1 --pause 0 -o m.json
done
expect_true "still no results file" test ! -e m.json

# ---- option values ----
# load's own checks, asked of load's parser for every load job's command line
expect_bad "--clients-per-process 0" "^kbench suite: --clients-per-process must be a whole number from 1 to [0-9]+, not '0'" "$KBENCH" suite --clients-per-process 0
expect_bad "-R -1" "^kbench suite: --target-rate must be a positive MB/sec figure, not '-1'" "$KBENCH" suite -R -1
expect_bad "-R fast" "^kbench suite: --target-rate must be a positive MB/sec figure, not 'fast'" "$KBENCH" suite -R fast
expect_bad "--latency-from late" "^kbench suite: --latency-from must be start or due, not 'late'" "$KBENCH" suite --latency-from late
expect_bad "--copies without --micro" '^kbench suite: --copies is an option of the micro jobs: give --micro too' "$KBENCH" suite --copies 2
expect_bad "--micro-quick without --micro" '^kbench suite: --micro-quick is an option of the micro jobs' "$KBENCH" suite --micro-quick
expect_bad "a load option without load" "^kbench suite: --sync is an option of the load jobs, and --clients none runs none\$" "$KBENCH" suite --clients none --micro -s
expect_bad "--server with -B nfs" "^kbench suite: --server is for -B sockio, not -B nfs" "$KBENCH" suite -B nfs --server h

# ---- options of the network backends: passed through once this kbench's load has them ----
for opt in --server --nfs --smb-share --smb-user --tcp-options; do
    if "$KBENCH" help load 2>&1 | grep -q -- "$opt"; then
        skip "$opt: this kbench's load has it (the child's command line is checked in test_suitejobs)"
    else
        expect_bad "$opt refused while load lacks it" "^kbench suite: $opt: this kbench's load command has no $opt option" \
            "$KBENCH" suite "$opt" x -o m.json
    fi
done

# a sockio series: refused before it starts, by the backend this load
# lacks, or by a server that does not answer (a port just closed)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if "$KBENCH" load -B sockio --check "$LF" >/dev/null 2>&1; then
    expect_bad "--server that does not answer" "^kbench suite: load 1: its server 127\\.0\\.0\\.1 port $port cannot be reached: Connection refused; nothing was run\$" \
        "$KBENCH" suite -c "$LF" --clients 1 --server "127.0.0.1:$port" -o m.json
else
    expect_bad "--server while load has no sockio" "^kbench suite: -B sockio: kbench load refuses it: .*sockio" \
        "$KBENCH" suite -c "$LF" --clients 1 --server "127.0.0.1:$port" -o m.json
fi
expect_bad "-B a backend no load has" "^kbench suite: unknown -B 'nosuch' \\(fileio, sockio" "$KBENCH" suite -c "$LF" --clients 1 -B nosuch -o m.json
expect_true "no results file after the refused backends" test ! -e m.json

# ---- load options passed through, as the load document shows ----
expect_rc "-s -F --clients-per-process -R passed to load" 0 "$KBENCH" suite -D "$D" -c "$LF" \
    --clients 2 --runs 1 -t 1 --warmup 0 --pause 0 -s -F --clients-per-process 2 -R 500 -o p.json
expect_true "the load child got them" test "$(jget p.json 'tuple(d["tests"][0]["runs"][0]["document"]["params"][k] for k in ("sync_open", "sync_dirs", "fsync_write", "xattr", "procs", "target_rate_MBps", "clients"))')" = "(True, False, True, False, 1, 500.0, 2)"
expect_true "the series' params say so" test "$(jget p.json 'tuple(d["params"][k] for k in ("sync", "fsync", "clients_per_process", "target_rate", "backend"))')" = "(True, True, 2, '500', 'fileio')"
expect_rc "-S -x passed to load" 0 "$KBENCH" suite -D "$D" -c "$LF" --clients 1 --runs 1 -t 1 \
    --warmup 0 --pause 0 -S -x -o sx.json
expect_true "the load child got -S -x" test "$(jget sx.json 'tuple(d["tests"][0]["runs"][0]["document"]["params"][k] for k in ("sync_open", "sync_dirs", "fsync_write", "xattr"))')" = "(False, True, False, True)"
if "$KBENCH" load -B fileio --check "$LF" >/dev/null 2>&1; then
    expect_rc "-B fileio passed to load" 0 "$KBENCH" suite -D "$D" -c "$LF" --clients 1 \
        --runs 1 -t 1 --warmup 0 --pause 0 -B fileio -o b.json
    expect_true "the load child ran fileio" test "$(jget b.json 'd["tests"][0]["runs"][0]["document"]["params"]["backend"]')" = fileio
else
    skip "-B (this kbench's load has no -B yet)"
fi

# ---- no load: --clients none, micro with its options ----
expect_rc "--clients none with micro" 0 "$KBENCH" suite --clients none --micro=lat_syscall_null \
    --micro-quick --runs 2 --pause 0 -o n.json
expect_true "only the micro test's row" test "$(jget n.json '[(t["name"], len(t["runs"])) for t in d["tests"]]')" = "[('lat_syscall_null', 2)]"
expect_true "micro ran --quick" test "$(jget n.json 'd["tests"][0]["runs"][0]["document"]["params"]["quick"]')" = True
expect_true "no load job counted" test "$(jget n.json 'd["done"]')" = "{'micro': 2}"

# ---- disk and micro under --mem-limit: each child in its own cgroup ----
if [ "$(id -u)" -ne 0 ] || ! "$KBENCH" load -D "$D" -c "$LF" --run-once -q --mem-limit 64M 1 >/dev/null 2>&1; then
    skip "disk and micro under --mem-limit (needs root and a memory controller)"
    finish
fi
expect_rc "disk and micro under none and 64M" 0 "$KBENCH" suite --disk disk.img --clients none \
    --micro=lat_syscall_null --micro-quick --mem-limit none,64M --runs 1 --pause 0 -o dm.json
expect_true "a row per job and limit" test "$(jget dm.json '[t["name"] for t in d["tests"]]')" = "['disk -T mem=none', 'disk -t mem=none', 'disk -T mem=64M', 'disk -t mem=64M', 'lat_syscall_null mem=none', 'lat_syscall_null mem=64M']"
expect_true "the limited runs have their cgroup's peak, within the limit" test "$(jget dm.json 'all(0 < r["mem_peak_bytes"] <= 64 << 20 for t in d["tests"] if t["name"].endswith("=64M") for r in t["runs"])')" = True
expect_true "the unlimited runs have none" test "$(jget dm.json 'any("mem_peak_bytes" in r for t in d["tests"] if t["name"].endswith("=none") for r in t["runs"])')" = False
expect_true "the disk rows hold the device's settings" test "$(jget dm.json '[t["params"]["device_info"]["of_file"] for t in d["tests"][:4]] + [d["system"]["disk"]["settings"]["of_file"]]')" = "[True, True, True, True, True]"
expect_true "the rows say their limit" test "$(jget dm.json '[t["params"].get("mem_limit") for t in d["tests"]]')" = "['none', 'none', '64M', '64M', 'none', '64M']"
finish
