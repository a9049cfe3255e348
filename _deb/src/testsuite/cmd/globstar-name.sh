# "**" inside a component name matches several components, dots
# included (stapprobes: sys**open), as a "**" component does
# (syscall.**.return): sys**open lists the syscall aliases ending in open.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
fail() { echo "$*"; exit 1; }
want='syscall.fsopen
syscall.mq_open
syscall.open
syscall.perf_event_open
syscall.pidfd_open'
got=$("$STAP" "${R[@]}" -l 'sys**open') || fail "stap -l 'sys**open' failed"
[ "$got" = "$want" ] || fail "sys**open lists: $got"
got=$("$STAP" "${R[@]}" -l 's**l.mq_*') || fail "stap -l 's**l.mq_*' failed"
[ "$(echo "$got" | grep -c .)" -ge 6 ] && ! echo "$got" | grep -qv '^syscall\.mq_' ||
    fail "s**l.mq_* lists: $got"
exit 0
