#!/bin/sh
# kbench - command-line tests: where kbench load finds its shipped
# loadfiles (the default client.txt, bare -c names): $KBENCH_LOADFILE_DIR,
# else loadfiles/ beside the src/ of a build tree it runs from, else the
# installed data directory; no path of the build is compiled in
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

# a loadfile of its own in each place, so the path taken says which it was
mkdir -p "$WORK/lf" "$WORK/tree/src" "$WORK/tree/loadfiles" "$WORK/bin" "$WORK/loadfiles" \
    "$WORK/cwd" "$WORK/d"
cp "$DATA/small.txt" "$WORK/lf/client.txt"
cp "$DATA/small.txt" "$WORK/lf/mine.txt"
cp "$DATA/small.txt" "$WORK/tree/loadfiles/client.txt"
cp "$DATA/bad-line.txt" "$WORK/loadfiles/client.txt"
cd "$WORK/cwd" || exit 1

# loadfile ENV... KBENCH: run kbench load -q --run-once on the default
# loadfile under env ENV...; its status in $RC, the path it took in $got
loadfile() {
    rm -f "$WORK/a.json"
    got=
    run env "$@" load -q --run-once --warmup 0 -D "$WORK/d" --json "$WORK/a.json" 1
    if [ -s "$WORK/a.json" ]; then got=$(jget "$WORK/a.json" 'd["params"]["loadfile"]'); fi
}

# --- $KBENCH_LOADFILE_DIR names the directory -------------------------------
loadfile KBENCH_LOADFILE_DIR="$WORK/lf" "$KBENCH"
if [ "$RC" -eq 0 ] && [ "$got" = "$WORK/lf/client.txt" ]; then
    pass "KBENCH_LOADFILE_DIR: its client.txt is the default"
else
    fail "KBENCH_LOADFILE_DIR: its client.txt is the default" "status $RC, loadfile '$got'" \
        "$(head -c 600 "$WORK/err")"
fi
run env KBENCH_LOADFILE_DIR="$WORK/lf" "$KBENCH" load --check mine.txt
expect_out_grep "KBENCH_LOADFILE_DIR: a bare -c name is looked up there" \
    "^$WORK/lf/mine\\.txt: dbench4 format, valid\$"
cp "$DATA/timed.txt" mine.txt
run env KBENCH_LOADFILE_DIR="$WORK/lf" "$KBENCH" load --check mine.txt
expect_out_grep "a bare name in the current directory comes first" \
    "^mine\\.txt: dbench4 format, valid\$"
rm -f mine.txt
run env KBENCH_LOADFILE_DIR="$WORK/nothere" "$KBENCH" load -q --run-once 1
if [ "$RC" -eq 2 ] && grep -q "^kbench load: $WORK/nothere/client\\.txt: cannot open loadfile: " "$WORK/err" &&
   [ "$(wc -l <"$WORK/err")" -eq 1 ]; then
    pass "KBENCH_LOADFILE_DIR without client.txt: one line naming it, status 2"
else
    fail "KBENCH_LOADFILE_DIR without client.txt: one line naming it, status 2" "status $RC" \
        "$(head -c 600 "$WORK/err")"
fi

# --- a copy of the binary: beside a build tree's src/, or not ---------------
cp "$KBENCH" "$WORK/tree/src/kbench"
cp "$KBENCH" "$WORK/bin/kbench"
if ! "$WORK/tree/src/kbench" --version >/dev/null 2>&1; then
    skip "a copy of kbench does not run from $WORK (noexec?)"
else
    loadfile -u KBENCH_LOADFILE_DIR "$WORK/tree/src/kbench"
    if [ "$RC" -eq 0 ] && [ "$got" = "$WORK/tree/loadfiles/client.txt" ]; then
        pass "TOP/src/kbench takes TOP/loadfiles/client.txt"
    else
        fail "TOP/src/kbench takes TOP/loadfiles/client.txt" "status $RC, loadfile '$got'" \
            "$(head -c 600 "$WORK/err")"
    fi
    loadfile KBENCH_LOADFILE_DIR="$WORK/lf" "$WORK/tree/src/kbench"
    expect_true "KBENCH_LOADFILE_DIR comes before the build tree" \
        test "$RC" -eq 0 -a "$got" = "$WORK/lf/client.txt"
    rm "$WORK/tree/loadfiles/client.txt"
    run env -u KBENCH_LOADFILE_DIR "$WORK/tree/src/kbench" load --run-once 1 -D "$WORK/d"
    if grep -q "$WORK/tree" "$WORK/out" "$WORK/err"; then
        fail "a build tree without client.txt is not taken" "$(head -c 600 "$WORK/err")"
    else
        pass "a build tree without client.txt is not taken"
    fi
    # TOP/bin/kbench is not a build tree's: TOP/loadfiles (a bad file) stays unread
    run env -u KBENCH_LOADFILE_DIR "$WORK/bin/kbench" load --run-once 1 -D "$WORK/d"
    if grep -q "$WORK/loadfiles" "$WORK/out" "$WORK/err"; then
        fail "an installed kbench takes no loadfiles/ beside its directory" \
            "$(head -c 600 "$WORK/err")"
    else
        pass "an installed kbench takes no loadfiles/ beside its directory"
    fi
fi
expect_empty_dir "the runs leave nothing in DIR" "$WORK/d"

# --- no path of this build in the binary (debug information aside) ---------
builddir=$(cd "$(dirname "$KBENCH")/.." && pwd)
if command -v objcopy >/dev/null 2>&1 && command -v strings >/dev/null 2>&1; then
    objcopy --strip-debug "$KBENCH" "$WORK/stripped"
    strings -a "$WORK/stripped" >"$WORK/strings"
    if grep -Fxq -e "$KBENCH_TOP_SRCDIR" -e "$builddir" -e "$builddir/src" "$WORK/strings"; then
        fail "the binary holds no path of the source or build tree" \
            "$(grep -Fx -e "$KBENCH_TOP_SRCDIR" -e "$builddir" -e "$builddir/src" "$WORK/strings")"
    else
        pass "the binary holds no path of the source or build tree"
    fi
else
    skip "no objcopy or strings (binutils) to look into the binary"
fi

finish
