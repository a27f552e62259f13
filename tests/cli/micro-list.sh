#!/bin/sh
# kbench - command-line tests: kbench micro --list and bad command lines
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

# the tests between processes have one row per placement
PLACED="lat_ctx_2p_0k lat_ctx_2p_16k lat_ctx_2p_64k lat_ctx_8p_16k lat_ctx_8p_64k
lat_ctx_16p_16k lat_ctx_16p_64k lat_pipe lat_unix lat_udp lat_tcp lat_connect bw_pipe
bw_unix bw_tcp"
LM_TESTS="lat_syscall_null lat_syscall_io lat_syscall_stat lat_syscall_open
lat_select_file lat_select_tcp lat_sig_install lat_sig_catch lat_sig_send lat_sig_hndl lat_sig_prot
lat_proc_fork lat_proc_exec lat_proc_shell
$(for t in $PLACED; do printf '%s_1cpu %s_2smt %s_2core ' $t $t $t; done)
lat_fs_create_0k lat_fs_delete_0k
lat_fs_create_10k lat_fs_delete_10k lat_mmap lat_pagefault bw_file_rd bw_mmap_rd bw_mem_bcopy_libc bw_mem_bcopy_loop bw_mem_rd
bw_mem_wr lat_mem_l1 lat_mem_l2 lat_mem_l3 lat_mem_main
lat_mem_rand_l1 lat_mem_rand_l2 lat_mem_rand_l3 lat_mem_rand_main"

# ---- --list: every test with family, unit, what and method ----
expect_rc "--list" 0 "$KBENCH" micro --list
expect_out_grep "--list: heading" "^TEST +FAMILY +UNIT +WHAT \\(METHOD\\)$"
missing=
for t in $LM_TESTS; do
    grep -Eq "^$t +lmbench +(us|ns|MB/s) +[^ ].* \\(lmbench [a-z_]+.*\\)$" "$WORK/out" || missing="$missing $t"
done
expect_eq "--list: every lmbench test with its unit and method (missing or malformed)" "$missing" ""
expect_out_grep "--list: null call is getppid in us" "^lat_syscall_null +lmbench +us +getppid\\(\\) system call \\(lmbench lat_syscall null\\)$"
expect_out_grep "--list: bandwidths in MB/s" "^bw_mem_rd +lmbench +MB/s "
expect_out_grep "--list: memory latencies in ns" "^lat_mem_main +lmbench +ns "
expect_out_grep "--list: the byte family too" "^byte_[a-z0-9_]+ +byte "
# lmbench's lat_rpc: six rows more where kbench was built with libtirpc
if grep -q '^#define HAVE_LIBTIRPC 1' "$(dirname "$KBENCH")/../config.h" 2>/dev/null; then
    LM_COUNT=85
    expect_out_grep "--list: lat_rpc over UDP" "^lat_rpc_udp_1cpu +lmbench +us +null ONC RPC call .* \\(lmbench lat_rpc udp\\)$"
    expect_out_grep "--list: lat_rpc over TCP" "^lat_rpc_tcp_2core +lmbench +us +null ONC RPC call .* \\(lmbench lat_rpc tcp\\)$"
else
    LM_COUNT=79
fi
expect_lines "--list: $LM_COUNT lmbench tests" -eq "$LM_COUNT" "$WORK/out" " lmbench "
expect_out_grep "--list: a placement in the line" "^lat_pipe_2core +lmbench +us +1-byte round trip .*; ends on two CPUs of different cores \\(lmbench lat_pipe\\)$"
expect_out_grep "--list: BYTE's context switching placed" "^byte_context_1cpu +byte +lps .*both on one CPU"

if [ "$LM_COUNT" -eq 79 ]; then
    expect_bad "no libtirpc: lat_rpc named" "test 'lat_rpc_udp': this kbench was built without libtirpc" \
        "$KBENCH" micro --quick lat_rpc_udp
fi
expect_rc "--list --family lmbench" 0 "$KBENCH" micro --list --family lmbench
expect_no_grep "--family lmbench lists no byte test" "$WORK/out" " byte "
expect_rc "--list --family byte" 0 "$KBENCH" micro --list --family byte
expect_no_grep "--family byte lists no lmbench test" "$WORK/out" " lmbench "
expect_lines "--family byte: its 32 tests" -eq 32 "$WORK/out" "^byte_[a-z0-9_]+ +byte "
expect_rc "--list --family all" 0 "$KBENCH" micro --list --family all
expect_lines "--family all: both families" -eq "$((LM_COUNT + 32))" "$WORK/out" " (lmbench|byte) "

# ---- family names as tests: bad mixes refused before anything runs ----
expect_bad "a family outside --family" "family 'byte' is not within --family lmbench" \
    "$KBENCH" micro --family lmbench byte
expect_bad "a test outside --family" "test 'byte_syscall' is in the byte family, not lmbench" \
    "$KBENCH" micro --family lmbench lmbench byte_syscall
expect_rc "a misspelt family" 2 "$KBENCH" micro --quick bytes
expect_err_grep "a misspelt family: named" "^kbench micro: unknown test 'bytes'$"
expect_err_grep "unknown test: the family words listed" "^and the families: lmbench byte all$"
# a test named by itself and through its family runs once (the run's
# first line counts the tests; names checked, not times)
mkdir -p "$WORK/tmp1"
TMPDIR="$WORK/tmp1" run "$KBENCH" micro --quick --json "$WORK/twice.json" byte_syscall byte_syscall
expect_status "a test named twice: exit 0" 0
expect_out_grep "a test named twice runs once" "^kbench .* micro: 1 tests$"
expect_eq "a test named twice: one row in the JSON" \
    "$(jget "$WORK/twice.json" '[t["name"] for t in d["results"]["tests"]]')" "['byte_syscall']"
expect_eq "no --label: the kernel release" "$(jget "$WORK/twice.json" 'd["label"]')" "$(uname -r)"

# ---- unknown test: exit 2, the list of valid names ----
expect_rc "unknown test" 2 "$KBENCH" micro --quick lat_syscall_null lat_nothing
expect_err_grep "unknown test: named" "^kbench micro: unknown test 'lat_nothing'$"
expect_err_grep "unknown test: valid names follow" "^valid tests:$"
expect_err_grep "unknown test: lmbench names listed" " lat_syscall_null .*lat_syscall_io"
expect_err_grep "unknown test: byte names listed" "byte_"
expect_no_grep "unknown test: nothing ran" "$WORK/err" '\[1/'

# ---- bad options: exit 2, one line, nothing run ----
expect_bad "--family foo" "--family must be lmbench, byte or all, not 'foo'" "$KBENCH" micro --family foo
expect_bad "--enough 0" "--enough must be a time from 0.1ms to 10s, not '0'" "$KBENCH" micro --enough 0
expect_bad "--enough abc" "--enough must be a time .* not 'abc'" "$KBENCH" micro --enough abc
expect_bad "--duration -1" "--duration must be a time from 10ms to 1h, not '-1'" "$KBENCH" micro --duration -1
expect_bad "--duration with --quick" "--duration cannot be used with --quick" \
    "$KBENCH" micro --quick --duration 5 byte_syscall
expect_bad "--copies 0" "--copies must be a whole number from 1 to 1024, not '0'" "$KBENCH" micro --copies 0
expect_bad "--baseline foo" "--baseline must be byte4 or unixbench5, not 'foo'" "$KBENCH" micro --baseline foo
expect_bad "unknown option" "--frob" "$KBENCH" micro --frob
expect_bad "--cpus malformed" "--cpus must be a list of CPU numbers such as 0,2 or 0-3, each once, not '1-'" \
    "$KBENCH" micro --cpus 1- lat_pipe
expect_bad "--cpus twice the same CPU" "--cpus must be a list .* not '0,0'" "$KBENCH" micro --cpus 0,0 lat_pipe
expect_bad "--cpus a CPU kbench may not use" "--cpus 1023: CPU 1023 is not one kbench may run on here" \
    "$KBENCH" micro --cpus 1023 lat_pipe
expect_bad "--list with a test name" "--list takes no test name \\('lat_pipe'\\)" \
    "$KBENCH" micro --list lat_pipe
expect_empty_file "--list with a test name: nothing listed" "$WORK/out"
expect_bad "test of another family" "test 'lat_pipe' is in the lmbench family, not byte" \
    "$KBENCH" micro --family byte lat_pipe
mkdir -p "$WORK/tmp"
expect_bad "--json in a missing directory" "--json $WORK/nodir/x.json" \
    env TMPDIR="$WORK/tmp" "$KBENCH" micro --quick --json "$WORK/nodir/x.json" lat_syscall_null
expect_bad "--json a directory" "--json $WORK" \
    env TMPDIR="$WORK/tmp" "$KBENCH" micro --quick --json "$WORK" lat_syscall_null
expect_empty_dir "bad --json: no temporary directory left" "$WORK/tmp"

# ---- a TMPDIR where no directory can be made: bad input, exit 2, one line
# naming it, nothing run ----
expect_bad_tmpdir() {
    tname=$1 dir=$2 why=$3
    shift 3
    expect_bad "$tname" "^kbench micro: TMPDIR $dir: cannot make a directory there: $why; set TMPDIR to a writable directory\$" "$@"
    expect_true "$tname: one line" [ "$(wc -l <"$WORK/err")" -eq 1 ]
}
: >"$WORK/plainfile"
expect_bad_tmpdir "TMPDIR a regular file" "$WORK/plainfile" "Not a directory" \
    env TMPDIR="$WORK/plainfile" "$KBENCH" micro --quick lat_syscall_null
expect_bad_tmpdir "TMPDIR missing" "$WORK/nodir" "No such file or directory" \
    env TMPDIR="$WORK/nodir" "$KBENCH" micro --quick lat_syscall_null
mkdir -p "$WORK/ro"
if [ "$(id -u)" -eq 0 ] && unshare -m sh -c 'mount -t tmpfs -o ro tmpfs "$0"' "$WORK/ro" 2>/dev/null; then
    # a read-only tmpfs in a private mount namespace: it goes with the namespace
    expect_bad_tmpdir "TMPDIR read-only" "$WORK/ro" "Read-only file system" \
        unshare -m sh -c 'mount -t tmpfs -o ro tmpfs "$0" && TMPDIR="$0" exec "$@"' "$WORK/ro" \
        "$KBENCH" micro --quick lat_syscall_null
else
    skip "TMPDIR read-only: needs root and a mount namespace"
fi
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 755 "$WORK"
    chmod 555 "$WORK/ro"
    expect_bad_tmpdir "TMPDIR not writable for the user" "$WORK/ro" "Permission denied" \
        setpriv --reuid=65534 --regid=65534 --clear-groups env TMPDIR="$WORK/ro" \
        "$KBENCH" micro --quick lat_syscall_null
    chmod 755 "$WORK/ro"
elif [ "$(id -u)" -ne 0 ]; then
    chmod 555 "$WORK/ro"
    expect_bad_tmpdir "TMPDIR not writable for the user" "$WORK/ro" "Permission denied" \
        env TMPDIR="$WORK/ro" "$KBENCH" micro --quick lat_syscall_null
    chmod 755 "$WORK/ro"
else
    skip "TMPDIR not writable (root without setpriv writes everywhere)"
fi

# ---- help names every option ----
expect_rc "--help" 0 "$KBENCH" micro --help
nohelp=
for opt in --list --family --enough --duration --quick --copies --baseline --cpus --json; do
    grep -q -- "$opt" "$WORK/out" || nohelp="$nohelp $opt"
done
expect_eq "--help names every option (missing)" "$nohelp" ""


# ---- standard output that cannot be written: said, exit 1 ----
mkdir -p "$WORK/tmp"
: >"$WORK/out"   # (not written by these runs)
TMPDIR="$WORK/tmp" "$KBENCH" micro --quick lat_syscall_null >&- 2>"$WORK/err"
RC=$?
expect_status "closed stdout: exit 1" 1
expect_err_grep "closed stdout: said" "^kbench micro: cannot write the results to standard output: "
if [ -c /dev/full ]; then
    TMPDIR="$WORK/tmp" "$KBENCH" micro --quick lat_syscall_null >/dev/full 2>"$WORK/err"
    RC=$?
    expect_status "full stdout: exit 1" 1
    expect_err_grep "full stdout: said" "^kbench micro: cannot write the results to standard output: "
    "$KBENCH" micro --list >/dev/full 2>"$WORK/err"
    RC=$?
    expect_status "--list to a full stdout: exit 1" 1
    expect_err_grep "--list to a full stdout: said" "^kbench micro: cannot write the list to standard output: "
else
    skip "no /dev/full"
fi
expect_empty_dir "unwritable stdout: no temporary directory left" "$WORK/tmp"

# ---- a mount that appears in the temporary directory is not emptied ----
mkdir -p "$WORK/mt" "$WORK/mo"
echo keep >"$WORK/mo/precious"
if [ "$(id -u)" -eq 0 ] && mount --bind "$WORK/mo" "$WORK/mo" 2>/dev/null && umount "$WORK/mo"; then
    TMPDIR="$WORK/mt" "$KBENCH" micro --enough 0.2 lat_fs_create_0k lat_syscall_stat \
        >"$WORK/out" 2>"$WORK/err" &
    BG=$!
    i=0
    while [ $i -lt 300 ] && ! ls -d "$WORK"/mt/kbench-micro.* >/dev/null 2>&1; do
        sleep 0.05; i=$((i + 1))
    done
    T=$(ls -d "$WORK"/mt/kbench-micro.* 2>/dev/null | head -1)
    if [ -n "$T" ] && mkdir "$T/sub" 2>/dev/null && mount --bind "$WORK/mo" "$T/sub"; then
        wait "$BG"
        umount "$T/sub" 2>/dev/null
        if [ "$(cat "$WORK/mo/precious" 2>/dev/null)" = keep ]; then
            pass "a mount in the temporary directory: what it holds stays"
        else
            fail "a mount in the temporary directory: what it holds stays" "$(ls -lA "$WORK/mo")"
        fi
    else
        wait "$BG"
        skip "a mount in the temporary directory (the run ended before it could be made)"
    fi
    rm -rf "$WORK/mt"
else
    skip "a mount in the temporary directory (needs root and mount)"
fi

finish
