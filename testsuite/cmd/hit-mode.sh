# The mode of each probe's hit path (runtime/stp_hit.h stp_hit, chosen by
# translator/codegen: hit_mode): a handler that uses its context only to
# count statements is light (STP_HIT_LIGHT); one that also names no error
# and holds no loop runs a known number of statements, and claims no
# context when that number is within MAXACTION (STP_HIT_NOERR, decided by
# the C compiler against -DMAXACTION).  A loop keeps the error test
# (MAXACTION's); a local, a try/catch, a call, output, anything fallible
# or a lock makes the handler full (mode 0).
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
fail=0
# mode BODY WANT: the kprobe pre_handler of `probe kernel.function("vfs_read")
# { BODY }` passes WANT as its mode
mode() {
    local c
    c=$("$STAP" "${R[@]}" -p3 -w -e "global n = 0, m = 0, s
probe kernel.function(\"vfs_read\") { $1 }
probe end { println(n, m); s <<< 0; println(@count(s)) }") || { echo "hit-mode: -p3 failed: $1"; fail=1; return; }
    echo "$c" | grep -qF "stp_kprobe_hit(kp, regs, probe_0, $2);" ||
        { echo "hit-mode: { $1 }: want mode $2, got:"
          echo "$c" | grep "stp_kprobe_hit(kp" ; fail=1; }
}
noerr() { echo "STP_HIT_LIGHT | ($1 <= MAXACTION ? STP_HIT_NOERR : 0)"; }
mode 'n++' "$(noerr 1)"
mode 'n++; m += 2' "$(noerr 2)"
mode 'n++; { m++; n-- }' "$(noerr 3)"
mode '' "$(noerr 0)"
mode 'while (1) n += 2' STP_HIT_LIGHT
mode 'for (i = 0; i < 3; i++) n++' 0
mode 'try { n++ } catch { m++ }' 0
mode 'n += 10 / m' 0
mode 's <<< 1' 0
mode 'println(1)' 0
# a probe set's ftrace callback and its kprobe pre_handler too
c=$("$STAP" "${R[@]}" -p3 -e 'global n
probe kernel.function("vfs_read*").call { n++ }
probe end { println(n) }') || { echo "hit-mode: kset -p3 failed"; exit 1; }
echo "$c" | grep -qF "stp_kset_ftrace_hit(op, ip, parent_ip, fregs, probe_0, $(noerr 1)," ||
    { echo "hit-mode: the kset callback is not NOERR"; fail=1; }
echo "$c" | grep -qF "stp_kset_ftrace_slow(op, ip, fregs, bit, probe_0, $(noerr 1));" ||
    { echo "hit-mode: the kset callback's slow path is not NOERR"; fail=1; }
echo "$c" | grep -qF "stp_kset_kprobe_hit(kp, regs, probe_0, $(noerr 1));" ||
    { echo "hit-mode: the kset pre_handler is not NOERR"; fail=1; }
exit $fail
