# The kernel's interfaces are detected, not assumed (runtime/kcaps/,
# translator/build/kcaps.c):
#  1. on every kernel line the lab has, the one compile of all probes
#     (their errors told apart by file name) gives the same answers as
#     compiling each probe alone (STP_KCAPS_ALONE=1): no probe's errors
#     spill into another's; and the answers are those the lines are known
#     to have (6.1: uprobe_register_refctr, no_llseek, NFSERR_OPNOTSUPP; 6.12: uprobe
#     handles, fprobe, bdev_partno());
#  2. a kernel lacking an interface a script needs (6.1's headers with
#     uprobe_register_refctr and uprobe_unregister taken out of
#     linux/uprobes.h, forced in first with -B KCFLAGS=-include) still
#     builds hello world, and a uprobe script fails pass 4 with one message
#     naming the missing part, the kernel and the kernel lines known to
#     work, and no compiler output.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
fail() { echo "FAIL: $*"; exit 1; }
# answers KVER DIR [ENV...] - build hello world for KVER with the runtime
# cache in DIR; print the kernel probes' answers
answers() {
    local kv=$1 dir=$2
    shift 2
    env SYSTEMTAP_DIR="$dir" "$@" "$STAP" -r "$kv" -p4 -e 'probe begin { exit() }' \
        > /dev/null 2> "$dir.err" || { cat "$dir.err"; fail "hello world for $kv failed"; }
    cat "$dir"/cache/runtime/*/stp_kcaps_found.h
}
n=0
for line in cloud 6.12-cloud; do
    kv=$("$srcdir/lab/kver" "$line" 2>/dev/null) || continue
    [ -d "/lib/modules/$kv/build" ] || continue
    n=$((n + 1))
    answers "$kv" "$PWD/one-$line" > one-$line.h
    answers "$kv" "$PWD/alone-$line" STP_KCAPS_ALONE=1 > alone-$line.h
    diff -u one-$line.h alone-$line.h || fail "$kv: one compile and separate ones disagree"
    case $line in
    cloud) want="UPROBE_REFCTR UPROBE_FILTER_CTX NO_LLSEEK GET_FILE_RCU_FILE BD_PARTNO VMA_ITERATOR NFSERR_OPNOTSUPP"
           lack="UPROBE_HANDLE UPROBE_FILTER_MM GET_FILE_RCU_PTRPTR BDEV_PARTNO_FN FPROBE HRTIMER_SETUP" ;;
    6.12-cloud) want="UPROBE_HANDLE UPROBE_FILTER_MM GET_FILE_RCU_PTRPTR BDEV_PARTNO_FN FPROBE FPROBE_ENTRY_RET_IP RETHOOK"
           lack="UPROBE_REFCTR UPROBE_FILTER_CTX NO_LLSEEK BD_PARTNO HRTIMER_SETUP NFSERR_OPNOTSUPP" ;;
    esac
    for c in $want; do grep -qx "#define STP_HAVE_$c 1" one-$line.h || fail "$kv: STP_HAVE_$c missing"; done
    for c in $lack; do grep -qx "/\* no STP_HAVE_$c \*/" one-$line.h || fail "$kv: STP_HAVE_$c should be missing"; done
    echo "$kv: $(grep -c '^#define' one-$line.h) of $(grep -c 'STP_HAVE' one-$line.h) capabilities, the same alone"
done
[ $n -gt 0 ] || fail "no lab kernel line installed"

# 2. a kernel without the uprobe registration this runtime knows
kv=$("$srcdir/lab/kver" cloud)
hdr=/lib/modules/$kv/build/include/linux/uprobes.h
[ -f "$hdr" ] || hdr=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "/lib/modules/$kv/build/Makefile")/include/linux/uprobes.h
[ -f "$hdr" ] || fail "no linux/uprobes.h for $kv"
sed '/uprobe_register_refctr\|uprobe_unregister(/,/[;}]$/d' "$hdr" > uprobes.h
! grep -q 'uprobe_register_refctr\|uprobe_unregister(' uprobes.h || fail "could not edit $hdr"
export SYSTEMTAP_DIR=$PWD/fake
"$STAP" -r "$kv" -B KCFLAGS="-include $PWD/uprobes.h" -p4 -e 'probe begin { exit() }' > /dev/null 2> hello.err ||
    { cat hello.err; fail "hello world did not build without the uprobe API"; }
grep -qx '/\* no STP_HAVE_UPROBE_REFCTR \*/' fake/cache/runtime/*/stp_kcaps_found.h ||
    fail "the edited header was not seen"
cat > prog.c <<'C'
int work(int x) { return x + 1; }
int main(void) { return work(0) - 1; }
C
gcc -g -O0 -o prog prog.c
rc=0
"$STAP" -r "$kv" -B KCFLAGS="-include $PWD/uprobes.h" -p4 \
    -e "probe process(\"$PWD/prog\").function(\"work\") { println(\$x) }" > /dev/null 2> up.err || rc=$?
cat up.err
[ $rc = 1 ] || fail "a uprobe script built (exit status $rc)"
[ "$(wc -l < up.err)" = 1 ] || fail "more than one line of messages"
grep -q "^stap: pass 4: kernel $kv lacks what this script needs: uprobes/register (runtime/kcaps/: uprobe_handle or uprobe_refctr); kernel lines known to work: .*6\.1.*6\.12" up.err ||
    fail "the message does not name the missing part, the kernel and the lines known to work"
echo "ok"
