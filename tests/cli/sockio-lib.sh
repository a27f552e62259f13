# kbench - helpers for the tests of kbench server and load -B sockio
# (sourced after lib.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# start_server NAME [ARGS...]: kbench server ARGS on 127.0.0.1 (unless ARGS
# say another --address) and a free port (--port 0), its stdout and stderr
# in $WORK/NAME.out and $WORK/NAME.err; its pid in $SRV, its port (read
# from its first line) in $PORT.  Every server started is stopped (SIGKILL,
# by its pid, and each of its connections' processes) when the script ends.
# Returns 1 if it did not say where it listens within 120 s.
SRV_PIDS=""
kill_servers() {
    for p in $SRV_PIDS; do
        pkill -KILL -P "$p" 2>/dev/null
        kill -KILL "$p" 2>/dev/null
    done
}
trap 'kill_servers; rm -rf "$WORK"' EXIT

start_server() {
    sname=$1
    shift
    : >"$WORK/$sname.out"
    # SIGINT at its default, not ignored as in this shell's background
    # jobs (lib.sh's bg_load): server.sh stops one with SIGINT
    # port 0 on 127.0.0.1 unless the caller names a port or an address
    # (an option given twice is refused)
    saddr="--address 127.0.0.1" sport="--port 0"
    for a in "$@"; do
        case $a in --address|--address=*) saddr= ;; --port|--port=*|-p) sport= ;; esac
    done
    # shellcheck disable=SC2086
    env --default-signal=INT "$KBENCH" server $sport $saddr "$@" \
        >"$WORK/$sname.out" 2>"$WORK/$sname.err" &
    SRV=$!
    SRV_PIDS="$SRV_PIDS $SRV"
    wait_until 120 grep -q 'listening on' "$WORK/$sname.out" || return 1
    PORT=$(sed -n '1s/^kbench server: listening on .*:\([0-9][0-9]*\) .*/\1/p' "$WORK/$sname.out")
    [ -n "$PORT" ]
}

# stop_server PID: SIGTERM, then wait for it (at most 120 s: then
# SIGKILL); its status in $RC.
stop_server() {
    kill -TERM "$1" 2>/dev/null
    if ! wait_until 120 not_running "$1"; then
        kill -KILL "$1" 2>/dev/null
    fi
    wait "$1"
    RC=$?
}

# children_of PID: the pids of PID's children, one a line
children_of() {
    pgrep -P "$1"
}
