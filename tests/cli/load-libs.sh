#!/bin/sh
# kbench - command-line tests: a backend's library is loaded only when its
# backend is chosen.  A fileio run's processes map neither libsmbclient nor
# libnfs (every client would otherwise inherit their relocated pages), nor
# micro's libtirpc, nor MPI's libraries (a --with-mpi build runs --mpi in
# kbench-mpi), and
# a -B nfs or -B smb whose library cannot be loaded says so in one line,
# naming the library, and exits 2 before anything is forked
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"
trap 'if [ -n "${BG:-}" ]; then kill "$BG" 2>/dev/null; fi; rm -rf "$WORK"' EXIT

# a client replays Sleep lines: it stays up while its maps are read
printf 'Sleep 200\n' >"$WORK/sleep.txt"

# a_client: the first client of the background run, in $CL
a_client() {
    CL=$(pgrep -P "$BG" | head -1)
    [ -n "$CL" ] && [ -r "/proc/$CL/maps" ]
}

bg_load -t 30 --warmup 0 -c "$WORK/sleep.txt" -D "$D" 2
if wait_until 120 a_client && wait_progress; then
    cp "/proc/$CL/maps" "$WORK/client.maps" 2>/dev/null
    cp "/proc/$BG/maps" "$WORK/parent.maps" 2>/dev/null
    # what is read is a live process's maps: the C library is there
    expect_file_grep "a client's maps are read (libc is mapped)" "$WORK/client.maps" '/libc[.-]'
    expect_no_grep "a fileio client maps no libsmbclient" "$WORK/client.maps" 'libsmbclient'
    expect_no_grep "a fileio client maps no libnfs" "$WORK/client.maps" 'libnfs'
    expect_no_grep "the parent of a fileio run maps neither" "$WORK/parent.maps" 'libsmbclient|libnfs'
    # micro's libtirpc is dlopened by lat_rpc only: no libtirpc, nor the
    # Kerberos libraries it brings, in a load run (a build with
    # AddressSanitizer links it: configure.ac)
    if ldd "$KBENCH" 2>/dev/null | grep -q libtirpc; then
        skip "a fileio client maps no libtirpc: this build links it (AddressSanitizer)"
    else
        expect_no_grep "a fileio client maps no libtirpc or libkrb5" "$WORK/client.maps" 'libtirpc|libkrb5|libgssapi'
    fi
    expect_no_grep "a run without --mpi maps no MPI library (parent)" "$WORK/parent.maps" 'libmpi|libopen-|libpmix|libmpich'
    expect_no_grep "a run without --mpi maps no MPI library (client)" "$WORK/client.maps" 'libmpi|libopen-|libpmix|libmpich'
else
    fail "the fileio run's clients start" "stderr: $(head -c 600 "$WORK/err")"
fi
kill -INT "$BG" 2>/dev/null
wait "$BG"
RC=$?
BG=
expect_status "the fileio run stops on SIGINT" 130
expect_empty_dir "the fileio run cleaned up" "$D"

# a library that is not a shared object, found first on LD_LIBRARY_PATH:
# dlopen fails, and the run stops before any client (configure's SONAMEs,
# from the Makefile)
mkdir -p "$WORK/libs"
if [ -n "${KBENCH_LIBNFS_SONAME:-}" ]; then
    echo "not a shared object" >"$WORK/libs/$KBENCH_LIBNFS_SONAME"
    expect_bad "-B nfs: libnfs cannot be loaded" \
        "^kbench load: -B nfs: cannot load $KBENCH_LIBNFS_SONAME: .*$KBENCH_LIBNFS_SONAME" \
        env LD_LIBRARY_PATH="$WORK/libs" "$KBENCH" load -B nfs --nfs nfs://127.0.0.1/x -t 1 1
else
    skip "-B nfs: this kbench was built without libnfs"
fi
if [ -n "${KBENCH_SMBCLIENT_SONAME:-}" ]; then
    echo "not a shared object" >"$WORK/libs/$KBENCH_SMBCLIENT_SONAME"
    expect_bad "-B smb: libsmbclient cannot be loaded" \
        "^kbench load: -B smb: cannot load $KBENCH_SMBCLIENT_SONAME: .*$KBENCH_SMBCLIENT_SONAME" \
        env LD_LIBRARY_PATH="$WORK/libs" "$KBENCH" load -B smb --smb-share //127.0.0.1/x \
        --smb-user u%p -t 1 1
else
    skip "-B smb: this kbench was built without libsmbclient"
fi

finish
