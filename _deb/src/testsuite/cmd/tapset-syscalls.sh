# The syscall tapsets cover the lab kernel's whole x86-64 system call
# table: `probe syscall.*`, `syscall.*.return`, `nd_syscall.*` and
# `nd_syscall.*.return` each resolve to one kprobe per system call (346 on
# 6.1.0-56-cloud-amd64), in under a second of CPU time (user + system;
# the wall time grows with the host's load: 2079 ms once with the load
# average at 15), and the script using every tapset probe and function
# resolves without a warning.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
tbl=/usr/src/linux-headers-$KVER/arch/x86/include/generated/asm/syscalls_64.h
want=$(grep -v ni_syscall "$tbl" | grep -c '__SYSCALL(')
for pp in 'syscall.*' 'syscall.*.return' 'nd_syscall.*' 'nd_syscall.*.return'; do
    # the CPU time of stap (bash's `time`: user and system seconds)
    cpu=$( { TIMEFORMAT='%3U %3S'; time "$STAP" -r "$KVER" --sysroot "$LAB/$KVER" -p2 \
                 -e "global n; probe $pp { n[name]++ }" > p2 2> err; } 2>&1 ) ||
        { cat err; echo "$pp: pass 2 failed"; exit 1; }
    ms=$(echo "$cpu" | awk '{ printf "%d", ($1 + $2) * 1000 }')
    [ ! -s err ] || { cat err; echo "$pp: pass 2 printed messages"; exit 1; }
    got=$(grep -c '^kprobe.function("__x64_sys_' p2)
    [ "$got" = "$want" ] || { echo "$pp: $got probes, want $want"; exit 1; }
    case $pp in *.return) [ "$(grep -c '^kprobe.function(.*).return' p2)" = "$want" ] ||
        { echo "$pp: not all are return probes"; exit 1; } ;; esac
    [ "$ms" -lt 1000 ] || { echo "$pp: pass 2 took $ms ms of CPU time"; exit 1; }
    echo "$pp: $got probes, pass 2 in $ms ms of CPU time"
done
grep -q 'kprobe.function("__x64_sys_getppid")' p2 || { echo "no getppid"; exit 1; }
"$STAP" -r "$KVER" --sysroot "$LAB/$KVER" -p2 \
    "$srcdir/semantic/ok/tapset_context_syscalls.stp" > /dev/null 2> err ||
    { cat err; echo "tapset_context_syscalls.stp: pass 2 failed"; exit 1; }
[ ! -s err ] || { cat err; echo "tapset_context_syscalls.stp: warnings"; exit 1; }
echo ok
