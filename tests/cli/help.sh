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

finish
