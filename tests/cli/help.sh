#!/bin/sh
# kbench - command-line tests: the command table, --help, --usage, --version
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

expect_rc "kbench alone lists commands" 0 "$KBENCH"
expect_out_grep "load listed" '^  load +replay a dbench-style loadfile'
expect_rc "kbench help" 0 "$KBENCH" help
expect_out_grep "help lists commands" '^commands:$'
expect_rc "kbench --version" 0 "$KBENCH" --version
expect_out_grep "version printed" '^kbench [0-9]+\.[0-9]+\.[0-9]+$'
expect_rc "unknown command" 2 "$KBENCH" frobnicate
expect_err_grep "unknown command named" "unknown command 'frobnicate'"
expect_rc "help of unknown command" 2 "$KBENCH" help frobnicate
for c in $("$KBENCH" | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
    expect_rc "kbench $c --help" 0 "$KBENCH" "$c" --help
    expect_out_grep "kbench $c --help shows usage" "^Usage: kbench $c "
    expect_rc "kbench $c --usage" 0 "$KBENCH" "$c" --usage
    expect_out_grep "kbench $c --usage" "^Usage: kbench $c "
    expect_rc "kbench help $c" 0 "$KBENCH" help "$c"
    expect_out_grep "kbench help $c shows usage" "^Usage: kbench $c "
done
run "$KBENCH" load --help
expect_out_grep "load --help has -c" '^  -c, --loadfile=FILE'

# one text for each option: every long option a command's --help offers is
# in its man page, and the defaults --help states agree with the page's
for c in $("$KBENCH" | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
    page="$KBENCH_TOP_SRCDIR/man/kbench-$c.1"
    [ -f "$page" ] || continue
    missing=""
    for opt in $("$KBENCH" "$c" --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' | sort -u); do
        case "$opt" in help|usage) continue ;; esac
        grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$page" || missing="$missing --$opt"
    done
    expect_eq "kbench $c: every --help option is in man/kbench-$c.1" "$missing" ""
done
"$KBENCH" load --help | tr '\n' ' ' | tr -s ' ' >"$WORK/help1"
run cat "$WORK/help1"
expect_out_grep "--warmup's default with --run-once, as the man page says" '0 with --run-once'
expect_out_grep "--mem-limit's T suffix, as the man page says" 'T: 2\^10, 2\^20, 2\^30, 2\^40'
expect_no_grep "--nfs offers no version=4, which is refused" "$WORK/out" 'version=4'

finish
