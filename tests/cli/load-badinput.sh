#!/bin/sh
# kbench - command-line tests: every bad input gets one clear line and exit 2,
# before any client starts
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"
L="$DATA/small.txt"

# one line on stderr, nothing started in D
one_line_nothing_started() {
    lines=$(wc -l <"$WORK/err")
    if [ "$lines" -eq 1 ] || grep -q "see 'kbench load --help'" "$WORK/err"; then pass "$1: one line"; else
        fail "$1: one line" "$(cat "$WORK/err")"; fi
    expect_empty_dir "$1: no client started" "$D"
}

for bad in "" 0 -1 abc 1.5 " 3" 99999999999 4x; do
    if [ -z "$bad" ]; then
        expect_rc "NCLIENTS missing" 2 "$KBENCH" load -t 1 -c "$L" -D "$D"
    else
        expect_rc "NCLIENTS '$bad'" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" -- "$bad"
    fi
    expect_err_grep "NCLIENTS '$bad' explained" 'NCLIENTS'
    one_line_nothing_started "NCLIENTS '$bad'"
done
expect_rc "NCLIENTS beyond what can fork" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" 5000000
expect_err_grep "fork limit named" 'more than this machine can fork'
expect_rc "extra argument" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" 1 2
expect_rc "unknown option" 2 "$KBENCH" load --frobnicate 1
expect_err_grep "unknown option named" 'frobnicate'
expect_rc "mistyped --smb-user" 2 "$KBENCH" load --smb-use=bob%S3cretPW 1
expect_err_grep "mistyped option named" '--smb-use=bob%\.\.\.: unknown option'
if grep -q S3cretPW "$WORK/err"; then fail "mistyped --smb-user: no password shown" "$(cat "$WORK/err")"
else pass "mistyped --smb-user: no password shown"; fi
for t in 0 -5 abc 1y; do
    expect_rc "timelimit '$t'" 2 "$KBENCH" load -t "$t" -c "$L" -D "$D" 1
    expect_err_grep "timelimit '$t' explained" 'timelimit'
done
expect_rc "bad warmup" 2 "$KBENCH" load -t 1 --warmup=-1 -c "$L" -D "$D" 1
expect_rc "clients-per-process 0" 2 "$KBENCH" load -t 1 --clients-per-process 0 -c "$L" -D "$D" 1
expect_rc "negative target rate" 2 "$KBENCH" load -t 1 -R -1 -c "$L" -D "$D" 1
# above 0 as written, 0 as a double: not the "no limit" of -R 0
expect_rc "a target rate too small for a double" 2 "$KBENCH" load -t 1 -R 1e-400 -c "$L" -D "$D" 1
expect_err_grep "a target rate too small: named" "--target-rate must be a positive MB/sec figure, not '1e-400'"
expect_rc "unknown backend" 2 "$KBENCH" load -t 1 -B tape -c "$L" -D "$D" 1
expect_err_grep "unknown backend named, with the known ones" "unknown -B 'tape' \(fileio"
one_line_nothing_started "unknown backend"
# --mpi: a kbench built without MPI refuses it; its options need it
"$KBENCH" load --mpi -t 0 1 >/dev/null 2>"$WORK/mpi.err"
if grep -q "built without MPI" "$WORK/mpi.err"; then
    expect_rc "--mpi in a kbench built without MPI" 2 "$KBENCH" load --mpi -t 1 -c "$L" -D "$D" 1
    expect_err_grep "--mpi: built without MPI, said" '^kbench load: --mpi: this kbench was built without MPI'
    one_line_nothing_started "--mpi without MPI"
fi
expect_rc "--clients-total without --mpi" 2 "$KBENCH" load -t 1 --clients-total 3 -c "$L" -D "$D"
expect_err_grep "--clients-total without --mpi, said" '^kbench load: --clients-total is for a job under MPI'
one_line_nothing_started "--clients-total without --mpi"
expect_rc "--stonewall without --mpi" 2 "$KBENCH" load -t 1 --stonewall -c "$L" -D "$D" 1
expect_err_grep "--stonewall without --mpi, said" '^kbench load: --stonewall is for a job under MPI'
one_line_nothing_started "--stonewall without --mpi"
for opt in "--server=127.0.0.1" "--tcp-options=TCP_NODELAY" "--nfs=nfs://h/e" "--smb-share=//h/s" \
           "--smb-user=u%p" "--smb-user-file=/dev/null"; do
    expect_rc "$opt with fileio" 2 "$KBENCH" load -t 1 "$opt" -c "$L" -D "$D" 1
    expect_err_grep "$opt with fileio: its backend named" "${opt%%=*} is for -B [a-z]+, not -B fileio"
    one_line_nothing_started "$opt with fileio"
done

# bad_loadfile NAME WHAT REGEX FILE: kbench load -c FILE exits 2, names the
# problem (REGEX, the check WHAT), in one line, and starts no client
bad_loadfile() {
    expect_rc "$1" 2 "$KBENCH" load -t 1 -c "$4" -D "$D" 1
    expect_err_grep "$2" "$3"
    one_line_nothing_started "$1"
}
bad_loadfile "missing loadfile" "missing loadfile named, with the command's prefix" \
    "^kbench load: $WORK/nope\\.txt: cannot open loadfile: No such file or directory\$" "$WORK/nope.txt"
bad_loadfile "loadfile is a directory" "directory loadfile named, with the command's prefix" "^kbench load: $WORK: " "$WORK"
bad_loadfile "malformed line" "FILE:LINE: problem" \
    'bad-line.txt:3: ReadX: too few arguments \(3 tokens after it, expected 4 and a status\)$' "$DATA/bad-line.txt"
bad_loadfile "path climbing out" "escape refused at parse" "escape.txt:2: path climbs out of the directory" \
    "$DATA/escape.txt"
printf 'Close 1 NT_STATUS_OK\n\001\002\003\000\377binary\n' >"$WORK/bin.txt"
expect_rc "binary loadfile" 2 "$KBENCH" load -t 1 -c "$WORK/bin.txt" -D "$D" 1
expect_err_grep "binary named with line" 'bin.txt:2: NUL byte'
: >"$WORK/empty.txt"
expect_rc "empty loadfile" 2 "$KBENCH" load -t 1 -c "$WORK/empty.txt" -D "$D" 1
expect_err_grep "empty loadfile explained" 'empty.txt: no operations in loadfile \(an empty file\)'
expect_rc "endless loadfile (/dev/zero)" 2 timeout 20 "$KBENCH" load -t 1 -c /dev/zero -D "$D" 1
expect_err_grep "endless line refused" '/dev/zero:1: line longer than 16 MiB'
expect_rc "endless binary loadfile (/dev/urandom)" 2 timeout 20 "$KBENCH" load -t 1 -c /dev/urandom -D "$D" 1
expect_err_grep "reading stops after many errors" '/dev/urandom: stopped reading after 1000 errors'
if LC_ALL=C grep -q '[[:cntrl:]]' "$WORK/err"; then fail "no control bytes in messages" "$(head -c 300 "$WORK/err" | od -c | head)"; else pass "no control bytes in messages"; fi
expect_rc "empty loadfile name" 2 "$KBENCH" load -t 1 -c '' -D "$D" 1

expect_rc "directory missing" 2 "$KBENCH" load -t 1 -c "$L" -D "$WORK/missing" 1
expect_err_grep "missing directory named" "$WORK/missing: No such file or directory"
expect_rc "directory is a file" 2 "$KBENCH" load -t 1 -c "$L" -D "$L" 1
expect_err_grep "file as directory named" 'small.txt: not a directory'
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$WORK/ro" && chmod 555 "$WORK/ro"
    expect_rc "directory not writable" 2 "$KBENCH" load -t 1 -c "$L" -D "$WORK/ro" 1
    expect_err_grep "not writable named" 'not writable'
elif mkdir "$WORK/ro" && mount -t tmpfs -o ro,size=1m kbench-test "$WORK/ro" 2>/dev/null; then
    expect_rc "directory on a read-only mount" 2 "$KBENCH" load -t 1 -c "$L" -D "$WORK/ro" 1
    expect_err_grep "read-only named" 'not writable: Read-only file system'
    umount "$WORK/ro"
else
    skip "directory not writable (root without mount)"
fi

# --json is checked before the run: nothing it names is ever clobbered
if [ "$(id -u)" -eq 0 ] && mknod "$WORK/dev" c 1 3 2>/dev/null; then
    expect_rc "--json onto a device node" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json "$WORK/dev" 1
    expect_err_grep "device refused" 'not a regular file; refusing to replace it'
    expect_true "the device node is still a device" [ -c "$WORK/dev" ]
fi
cp "$L" "$WORK/mine.txt"
expect_rc "--json onto the loadfile" 2 "$KBENCH" load -t 1 -c "$WORK/mine.txt" -D "$D" --json "$WORK/mine.txt" 1
expect_err_grep "loadfile refused" "that is $WORK/mine.txt"

expect_same_file "the loadfile is untouched" "$WORK/mine.txt" "$L"
expect_rc "--json inside DIR" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json "$D/r.json" 1
expect_err_grep "inside DIR refused" 'inside the run directory'
expect_rc "--json in a missing directory" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json "$WORK/no/such/r.json" 1
expect_err_grep "missing directory named" 'cannot write in .*/no/such'
expect_rc "--json ''" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json '' 1
# a directory where no client tree can be made is bad input, found before
# any client starts
if [ -d /proc/self ]; then
    expect_rc "-D /proc" 2 "$KBENCH" load -t 1 -c "$L" -D /proc 1
    expect_err_grep "-D /proc: said" '/proc/clients: cannot make it'
fi
expect_rc "--run-once -t 0" 2 "$KBENCH" load --run-once -t 0 -c "$L" -D "$D" 1
# a link (planted by anyone, in /tmp say) never makes root replace its target
echo "someone's" >"$WORK/theirs"
ln -s "$WORK/theirs" "$WORK/link.json"
expect_rc "--json onto a symbolic link" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json "$WORK/link.json" 1
expect_err_grep "the link is refused" 'link\.json: a symbolic link, which kbench does not follow'
expect_true "its target is untouched" [ "$(cat "$WORK/theirs")" = "someone's" ]
# inside DIR by another name: DIR's own path through a link
ln -s "$D" "$WORK/dirlink"
expect_rc "--json inside DIR through a link to it" 2 "$KBENCH" load -t 1 -c "$L" -D "$D" --json "$WORK/dirlink/r.json" 1
expect_err_grep "inside DIR by another name refused" 'inside the run directory'
one_line_nothing_started "--json checks"

finish
