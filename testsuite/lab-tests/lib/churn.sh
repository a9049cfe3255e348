# lib/churn.sh - sourced by uprocess_churn.guest and
# uprocess_fork_window.guest.

# churn_wait LINE PID - until staprun.out holds LINE, PID ends or 60 s pass
churn_wait() {
    local i=0
    until grep -qx "$1" staprun.out 2>/dev/null; do
        kill -0 "$2" 2>/dev/null || break
        i=$((i + 1)); [ $i -lt 600 ] || break
        sleep 0.1
    done
}

# churn_run - run $KO while three loops start
# `parked 1 go` (go exists: each process makes its thread and exits), from
# before staprun until the script has seen 5 of them and their threads
# end with the probes up (it prints "churned"; up to 60 s), then stop
# it with SIGINT and print its output.  Returns staprun's exit status.
churn_run() {
    local k pid rc
    : > go
    rm -f stop
    for k in 1 2 3; do
        ( while [ ! -e stop ]; do "$BIN/parked" 1 go > /dev/null; done ) &
    done
    staprun "$KO" > staprun.out 2> staprun.err &
    pid=$!
    churn_wait tracing $pid
    churn_wait churned $pid
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    : > stop
    wait
    cat staprun.out
    cat staprun.err >&2
    return $rc
}
