#!/bin/sh
# kbench - command-line tests: kbench record turns real programs' file I/O
# (cp -r, tar -xf, a small C build) into loadfiles that kbench load
# --check accepts and that a --run-once replay carries out exactly: the
# recorded number of each operation, the recorded bytes, no error, with 1
# and 4 clients and over -B sockio; the recording's figures match what
# the program really did (files, sizes); a hand-written strace log gives
# a known loadfile; bad input is one line and status 2 with nothing
# written
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

# --- a log converted: no strace needed -------------------------------------
run "$KBENCH" record --from-strace "$DATA/record-small.strace" -o "$WORK/small.lf" -D /w
expect_status "a hand-written strace log converts" 0
grep -v '^#' "$WORK/small.lf" >"$WORK/small.ops"
expect_same_file "its operations are the ones expected" "$WORK/small.ops" "$DATA/record-small.lf"
expect_file_grep "its header says how it was made" "$WORK/small.lf" \
    '^# converted from the strace log .*record-small\.strace$'
expect_file_grep "and what it left out, with counts" "$WORK/small.lf" \
    '^#   mmap of a file under DIR +1$'
expect_out_grep "the summary counts the calls outside DIR" 'calls on files outside DIR +2$'
expect_out_grep "and the setup's bytes apart from the program's: the ranges read of in.dat" \
    '^bytes written: +500 \(program\) \+ 6096 \(setup: 2 files, 0 directories\)$'
expect_out_grep "and the bytes of in.dat no ReadX reads, left as a hole" \
    '^ +\(1 files found there written only where ReadX reads, 3904 bytes not: --full-sizes writes them whole\)$'

# summary_check NAME LOADFILE SUMMARY: kbench load --check counts what the
# summary's Total column says, and the same bytes
summary_check() {
    "$KBENCH" load --check "$2" >"$WORK/check.out" 2>&1
    expect_py "$1: --check counts the recorded ops and bytes" "$WORK/check.out" "$3" <<'PY'
import re, sys
check = open(sys.argv[1]).read()
summ = open(sys.argv[2]).read()
tot = {m.group(1): int(m.group(4)) for m in
       re.finditer(r'^ (\S+) +(\d+) +(\d+) +(\d+)$', summ, re.M) if m.group(1) != '(all)'}
got = {m.group(1): int(m.group(2)) for m in re.finditer(r'^ (\S+) +(\d+) +[\d.]+%$', check, re.M)}
assert 'valid' in check.splitlines()[0], check[:300]
assert tot == got, (tot, got)
r = int(re.search(r'^bytes read: +(\d+)', summ, re.M).group(1))
w, s = map(int, re.search(r'^bytes written: +(\d+) \(program\) \+ (\d+)', summ, re.M).groups())
cr = float(re.search(r'^bytes read: +([\d.]+) MB', check, re.M).group(1))
cw = float(re.search(r'^bytes written: +([\d.]+) MB', check, re.M).group(1))
assert abs(cr - r / 1e6) < 0.0006 and abs(cw - (w + s) / 1e6) < 0.0006, (r, w, s, cr, cw)
PY
}

# replay_check NAME LOADFILE SUMMARY N [LOAD ARGS...]: a --run-once replay
# with N clients does N times each recorded op and moves N times the
# recorded bytes, with no error
replay_check() {
    rname=$1 rlf=$2 rsum=$3 rn=$4
    shift 4
    "$KBENCH" load --run-once -q -c "$rlf" --json="$WORK/replay.json" "$@" "$rn" \
        >"$WORK/replay.out" 2>"$WORK/replay.err"
    RC=$?
    expect_status "$rname: the replay of $rn clients runs" 0
    expect_py "$rname: $rn clients do the recorded ops and bytes, no error" \
        "$WORK/replay.json" "$rsum" "$rn" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))['results']
summ = open(sys.argv[2]).read()
n = int(sys.argv[3])
report = {'QUERY_PATH_INFORMATION': 'Qpathinfo', 'QUERY_FILE_INFORMATION': 'Qfileinfo',
          'QUERY_FS_INFORMATION': 'Qfsinfo', 'SET_FILE_INFORMATION': 'Sfileinfo',
          'FIND_FIRST': 'Find'}
tot = {report.get(m.group(1), m.group(1)): int(m.group(4)) * n for m in
       re.finditer(r'^ (\S+) +(\d+) +(\d+) +(\d+)$', summ, re.M) if m.group(1) != '(all)'}
got = {o['name']: o['count'] for o in res['ops'] if o['count']}
assert res['errors'] == 0, res['error_lines'][:5]
assert tot == got, (tot, got)
r = int(re.search(r'^bytes read: +(\d+)', summ, re.M).group(1))
w, s = map(int, re.search(r'^bytes written: +(\d+) \(program\) \+ (\d+)', summ, re.M).groups())
assert res['bytes'] == n * (r + w + s), (res['bytes'], n, r, w, s)
PY
}

summary_check "the converted log" "$WORK/small.lf" "$WORK/out"
cp "$WORK/out" "$WORK/small.sum"
replay_check "the converted log" "$WORK/small.lf" "$WORK/small.sum" 1

# every kind of call kbench record maps: locks (fcntl, flock), pwritev,
# fdatasync, ftruncate, fallocate, a thread sharing the descriptors, lseek,
# O_APPEND, sendfile, splice to a pipe, copy_file_range, a call in two
# halves, statfs, getdents, F_DUPFD_CLOEXEC and execve closing it, mkdir
# of a name that exists, a failed unlink, rmdir
run "$KBENCH" record --from-strace "$DATA/record-calls.strace" -o "$WORK/calls.lf" -D /w
expect_status "a log of every kind of call converts" 0
cp "$WORK/out" "$WORK/calls.sum"
grep -v '^#' "$WORK/calls.lf" >"$WORK/calls.ops"
expect_same_file "its operations are the ones expected" "$WORK/calls.ops" "$DATA/record-calls.lf"
expect_out_grep "nothing of it is left out" '^left out \(0 calls\):$'
expect_out_grep "what was followed is counted" '^  closes by exec \(O_CLOEXEC\) or by a process.s end +3$'
summary_check "every kind of call" "$WORK/calls.lf" "$WORK/calls.sum"
replay_check "every kind of call" "$WORK/calls.lf" "$WORK/calls.sum" 2

# --untimed: the same operations, with no times
run "$KBENCH" record --from-strace "$DATA/record-calls.strace" -o "$WORK/calls-untimed.lf" -D /w --untimed
expect_status "--untimed converts" 0
grep -v '^#' "$WORK/calls-untimed.lf" >"$WORK/untimed.ops"
sed 's/^[0-9][0-9.]* //' "$DATA/record-calls.lf" >"$WORK/untimed.want"
expect_same_file "--untimed gives the same lines without their times" "$WORK/untimed.ops" "$WORK/untimed.want"
run "$KBENCH" load --check "$WORK/calls-untimed.lf"
expect_out_grep "--check finds it untimed" '^duration: +not timestamped'

# a pid that comes again after its process ended is a new process, with
# no descriptor of the old one
cat >"$WORK/reuse.strace" <<'LOG'
5 10.000000 openat(AT_FDCWD</w>, "a", O_RDONLY) = 3</w/a>
5 10.000100 +++ exited with 0 +++
5 10.000200 read(3</w/a>, ""..., 10) = 10
5 10.000300 +++ exited with 0 +++
LOG
run "$KBENCH" record --from-strace "$WORK/reuse.strace" -o "$WORK/reuse.lf" -D /w
expect_status "a pid used again converts" 0
expect_out_grep "the new process's descriptor was open before the trace" \
    '^  descriptors open before the trace \(opened at first use\) +1$'
expect_lines "its read has a handle of its own, closed at its end" -eq 2 "$WORK/reuse.lf" '^[0-9.]+ Close 1 NT_STATUS_OK$'

# a file found there is written only where its ReadX lines read (here
# nowhere: its size is only seen, and it is mapped), unless --full-sizes
cat >"$WORK/stat.strace" <<'LOG'
5 10.000000 openat(AT_FDCWD</w>, "big.pack", O_RDONLY) = 3</w/big.pack>
5 10.000100 fstat(3</w/big.pack>, {st_mode=S_IFREG|0644, st_size=5000000, ...}) = 0
5 10.000200 mmap(NULL, 5000000, PROT_READ, MAP_SHARED, 3</w/big.pack>, 0) = 0x7f0000000000
5 10.000300 close(3</w/big.pack>) = 0
5 10.000400 +++ exited with 0 +++
LOG
run "$KBENCH" record --from-strace "$WORK/stat.strace" -o "$WORK/stat.lf" -D /w
expect_out_grep "a file no ReadX reads is made empty, and the summary says so" \
    '^ +\(1 files found there written only where ReadX reads, 5000000 bytes not: --full-sizes writes them whole\)$'
expect_lines "its setup has no WriteX" -eq 0 "$WORK/stat.lf" '^WriteX'
expect_out_grep "its mmap is counted out" '^  mmap of a file under DIR +1$'
run "$KBENCH" record --from-strace "$WORK/stat.strace" -o "$WORK/stat-full.lf" -D /w --full-sizes
expect_lines "--full-sizes writes its 5000000 bytes in 1 MiB pieces" -eq 5 "$WORK/stat-full.lf" \
    '^WriteX 1 [0-9]+ [0-9]+ [0-9]+ NT_STATUS_OK$'
expect_out_grep "and counts them as the setup's" '\+ 5000000 \(setup: 1 files, 0 directories\)$'

# a name first opened with nothing said of its kind, then shown to be a
# directory (a stat, a name below it), is made as a directory
cat >"$WORK/dir.strace" <<'LOG'
5 10.000000 openat(AT_FDCWD</w>, "d", O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_PATH) = 3</w/d>
5 10.000100 close(3</w/d>) = 0
5 10.000200 newfstatat(AT_FDCWD</w>, "d", {st_mode=S_IFDIR|0755, st_size=4096, ...}, 0) = 0
5 10.000300 openat(AT_FDCWD</w>, "d/e/f", O_RDONLY) = 3</w/d/e/f>
5 10.000400 read(3</w/d/e/f>, ""..., 100) = 7
5 10.000500 +++ exited with 0 +++
LOG
run "$KBENCH" record --from-strace "$WORK/dir.strace" -o "$WORK/dir.lf" -D /w
grep -v '^[#0-9]' "$WORK/dir.lf" >"$WORK/dir.setup"
printf '%s\n' 'Mkdir "\clients\client1\d" NT_STATUS_OK' 'Mkdir "\clients\client1\d\e" NT_STATUS_OK' \
    'NTCreateX "\clients\client1\d\e\f" 0x0 5 1 NT_STATUS_OK' 'WriteX 1 0 7 7 NT_STATUS_OK' \
    'Close 1 NT_STATUS_OK' >"$WORK/dir.want"
expect_same_file "a name shown later to be a directory is made as one" "$WORK/dir.setup" "$WORK/dir.want"
run "$KBENCH" load --run-once -q -c "$WORK/dir.lf" --json="$WORK/dir.json" 1
expect_py "and its replay ends with no error" "$WORK/dir.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))['results']
assert res['errors'] == 0, res['error_lines']
PY

# --- bad input ----------------------------------------------------------------
mkdir "$WORK/bad"
: >"$WORK/bad/exists.lf"
printf 'hello\nworld\n' >"$WORK/bad/notstrace.log"
expect_bad "no -o" "kbench record: -o FILE is required" "$KBENCH" record -- true
expect_bad "an -o that exists" "kbench record: -o '.*exists.lf': it exists" \
    "$KBENCH" record -o "$WORK/bad/exists.lf" -- true
expect_bad "an -o in a directory that is missing" \
    "kbench record: -o '.*nodir/x.lf': cannot write in its directory: No such file or directory" \
    "$KBENCH" record -o "$WORK/nodir/x.lf" -- true
expect_bad "a missing DIR" "kbench record: -D '.*nosuch': No such file or directory" \
    "$KBENCH" record -o "$WORK/bad/x.lf" -D "$WORK/nosuch" -- true
expect_bad "a DIR that is a file" "kbench record: -D '.*exists.lf': not a directory" \
    "$KBENCH" record -o "$WORK/bad/x.lf" -D "$WORK/bad/exists.lf" -- true
expect_bad "no command" "kbench record: no COMMAND to record" "$KBENCH" record -o "$WORK/bad/x.lf"
expect_bad "a command not found" "kbench record: 'no-such-command-kb': command not found" \
    "$KBENCH" record -o "$WORK/bad/x.lf" -- no-such-command-kb
expect_bad "a log not in strace's form" \
    "kbench record: .*notstrace.log:1: not a line of strace -f -ttt -yy: no pid and -ttt time" \
    "$KBENCH" record --from-strace "$WORK/bad/notstrace.log" -o "$WORK/bad/x.lf" -D /w
expect_bad "--from-strace without -D" "kbench record: --from-strace needs -D DIR" \
    "$KBENCH" record --from-strace "$DATA/record-small.strace" -o "$WORK/bad/x.lf"
expect_bad "a log that is missing" "kbench record: --from-strace '.*nolog': No such file" \
    "$KBENCH" record --from-strace "$WORK/nolog" -o "$WORK/bad/x.lf" -D /w
cat >"$WORK/bad/none.strace" <<'LOG'
5 10.000000 openat(AT_FDCWD</w>, "/etc/passwd", O_RDONLY) = 3</etc/passwd>
5 10.000100 +++ exited with 0 +++
LOG
expect_bad "a log with no call under DIR" \
    "kbench record: no call on a file under /w among the 1 traced: no loadfile written" \
    "$KBENCH" record --from-strace "$WORK/bad/none.strace" -o "$WORK/bad/x.lf" -D /w
rm "$WORK/bad/none.strace"
ls -A "$WORK/bad" >"$WORK/bad.ls"
printf 'exists.lf\nnotstrace.log\n' >"$WORK/bad.want"
expect_same_file "bad input wrote nothing" "$WORK/bad.ls" "$WORK/bad.want"

# --- real programs, under strace --------------------------------------------
if ! command -v strace >/dev/null 2>&1; then
    skip "strace is not installed: real programs are not recorded here"
    finish
fi
if ! strace -f -o /dev/null true 2>/dev/null; then
    skip "strace cannot trace here (ptrace not allowed): real programs are not recorded"
    finish
fi

# a program that fails: status 2, no loadfile
mkdir "$WORK/d0"
(cd "$WORK/d0" && "$KBENCH" record -o "$WORK/fail.lf" -- sh -c 'touch made; exit 3') \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
expect_status "a command that fails: status 2" 2
expect_err_grep "and says so in one line" "^kbench record: 'sh' failed \(exit status 3\): no loadfile written$"
expect_true "and writes no loadfile" test ! -e "$WORK/fail.lf"

# names a loadfile cannot hold, a directory with a wildcard in its name,
# two names that differ only in case: counted, and the loadfile is valid
mkdir "$WORK/d4"
(cd "$WORK/d4" && "$KBENCH" record -o "$WORK/odd.lf" -- sh -c \
    'mkdir "a*b" && ls "a*b" && echo 1 >"x\\y" && echo 2 >"q\"r" && echo 3 >Up && echo 4 >up && cat Up up') \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
expect_status "odd names are recorded" 0
expect_out_grep "the two names with a quote and a backslash are counted out" \
    "^  names a loadfile cannot hold .* +2\$"
expect_out_grep "a getdents of a directory with a wildcard in its name too" \
    '^  getdents of a directory with a wildcard in its name \(no FIND_FIRST\) +[1-9]'
expect_out_grep "and names that differ only in case" \
    '^  names that differ from another only in case \(the loadfile folds case\) +1$'
run "$KBENCH" load --check "$WORK/odd.lf"
expect_status "kbench load --check accepts it" 0

# cp -r of a tree: sizes around the loadfile's limits, a nested directory
mkdir -p "$WORK/d1/src/sub/deeper"
printf 'hello\n' >"$WORK/d1/src/a.txt"
: >"$WORK/d1/src/empty"
head -c 200000 /dev/urandom >"$WORK/d1/src/sub/b.bin"
head -c 70000 /dev/urandom >"$WORK/d1/src/sub/deeper/c.bin"
run "$KBENCH" record -o "$WORK/cp.lf" -D "$WORK/d1" -- cp -r "$WORK/d1/src" "$WORK/d1/dst"
expect_status "cp -r is recorded" 0
cp "$WORK/out" "$WORK/cp.sum"
expect_true "cp really copied" diff -r "$WORK/d1/src" "$WORK/d1/dst"
expect_out_grep "the program's reads are the tree's bytes" '^bytes read: +270006 \(program\)$'
expect_out_grep "its writes too, and the setup makes the 4 files (270006 bytes) and 3 directories" \
    '^bytes written: +270006 \(program\) \+ 270006 \(setup: 4 files, 3 directories\)$'
expect_out_grep "Mkdir: 3 in the setup, 3 by the program" '^ Mkdir +3 +3 +6$'
expect_file_grep "the header names the command" "$WORK/cp.lf" '^# command: cp -r .*/d1/src .*/d1/dst$'
summary_check "cp -r" "$WORK/cp.lf" "$WORK/cp.sum"
replay_check "cp -r" "$WORK/cp.lf" "$WORK/cp.sum" 1
replay_check "cp -r" "$WORK/cp.lf" "$WORK/cp.sum" 4

# tar -xf of a tarball made outside DIR
mkdir -p "$WORK/t/pkg/doc" "$WORK/d2"
for i in 1 2 3 4 5; do head -c $((i * 5000)) /dev/urandom >"$WORK/t/pkg/f$i"; done
printf 'read me\n' >"$WORK/t/pkg/doc/README"
ln -s ../f1 "$WORK/t/pkg/doc/link"
tar -cf "$WORK/pkg.tar" -C "$WORK/t" pkg
(cd "$WORK/d2" && "$KBENCH" record -o "$WORK/tar.lf" -- tar -xf "$WORK/pkg.tar") \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
expect_status "tar -xf is recorded" 0
cp "$WORK/out" "$WORK/tar.sum"
expect_true "tar really extracted" diff -r "$WORK/t/pkg" "$WORK/d2/pkg"
expect_out_grep "tar's writes are the files' bytes (75008), nothing read in DIR, no setup" \
    '^bytes written: +75008 \(program\) \+ 0 \(setup: 0 files, 0 directories\)$'
expect_out_grep "the tarball's reads are outside DIR" 'calls on files outside DIR +[1-9]'
expect_out_grep "the placeholder's Unlink" '^ Unlink +0 +1 +1$'
expect_out_grep "the symbolic link is counted out, and the calls on it" \
    '^  calls on links and nodes the program made \(no operation makes one\) +[1-9]'
# GNU tar makes a symbolic link whose target climbs ('..') in two steps: an
# empty placeholder file first, unlinked for the link at the end
expect_lines "a creating NTCreateX per file made, and the link's placeholder" -eq 7 "$WORK/tar.lf" \
    '^[0-9.]+ NTCreateX "[^"]*" 0x0 [25] [0-9]+ NT_STATUS_OK$'
summary_check "tar -xf" "$WORK/tar.lf" "$WORK/tar.sum"
replay_check "tar -xf" "$WORK/tar.lf" "$WORK/tar.sum" 1
replay_check "tar -xf" "$WORK/tar.lf" "$WORK/tar.sum" 4

# a small C build: make runs the compiler, the assembler, the linker
if command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
    mkdir "$WORK/d3"
    for i in 1 2 3; do
        printf 'int f%d(int x) { return x + %d; }\n' "$i" "$i" >"$WORK/d3/f$i.c"
    done
    printf 'int f1(int); int f2(int); int f3(int);\nint main(void) { return f1(0) + f2(0) + f3(0) - 6; }\n' \
        >"$WORK/d3/main.c"
    printf 'prog: main.o f1.o f2.o f3.o\n\t$(CC) -o $@ main.o f1.o f2.o f3.o\n' >"$WORK/d3/Makefile"
    (cd "$WORK/d3" && "$KBENCH" record -o "$WORK/make.lf" -- make -s -j2) \
        >"$WORK/out" 2>"$WORK/err"
    RC=$?
    expect_status "make -j2 of a small C project is recorded" 0
    cp "$WORK/out" "$WORK/make.sum"
    expect_true "the program it built runs" "$WORK/d3/prog"
    for f in main.o f1.o f2.o f3.o prog; do
        expect_file_grep "$f is made by an NTCreateX that creates" "$WORK/make.lf" \
            "^[0-9.]+ NTCreateX \"[^\"]*\\\\$f\" 0x0 [25] [0-9]+ NT_STATUS_OK\$"
    done
    sources=$(cat "$WORK/d3"/*.c "$WORK/d3/Makefile" | wc -c)
    expect_out_grep "the setup makes the 5 sources ($sources bytes)" \
        "\+ $sources \(setup: 5 files, 0 directories\)$"
    summary_check "make -j2" "$WORK/make.lf" "$WORK/make.sum"
    replay_check "make -j2" "$WORK/make.lf" "$WORK/make.sum" 1
    replay_check "make -j2" "$WORK/make.lf" "$WORK/make.sum" 4
else
    skip "no cc or make: the C build is not recorded"
fi

# another backend: the network load of the tar -xf recording (its calls
# are below the 70000 bytes a tbench request may carry)
if start_server s1; then
    replay_check "tar -xf over -B sockio" "$WORK/tar.lf" "$WORK/tar.sum" 2 -B sockio \
        --server "127.0.0.1:$PORT"
    stop_server "$SRV"
else
    fail "kbench server starts for -B sockio" "$(cat "$WORK/s1.err")"
fi

# the same log converted again gives the same loadfile
strace -f -ttt -yy -o "$WORK/cp2.log" cp -r "$WORK/d1/src" "$WORK/d1/dst2" 2>"$WORK/err"
run "$KBENCH" record --from-strace "$WORK/cp2.log" -o "$WORK/cp2.lf" -D "$WORK/d1"
expect_status "a log strace wrote converts" 0
cp "$WORK/out" "$WORK/cp2.sum"
expect_out_grep "with the bytes cp copied" '^bytes read: +270006 \(program\)$'
replay_check "the converted cp -r" "$WORK/cp2.lf" "$WORK/cp2.sum" 1

finish
