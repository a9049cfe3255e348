# SIGKILL of stap still ends the run: staprun is started with
# PR_SET_PDEATHSIG=SIGTERM, which it handles like Ctrl-C (end probes, module
# removed; see the lab test lifetime for staprun's side).  Here a fake
# staprun ($SYSTEMTAP_STAPRUN) records its arguments and the signal.  A
# cached module is run with -R (a name unique to the run); -G parameters
# follow the module.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
cat > fake-staprun <<'EOS'
#!/bin/bash
echo "$*" > args
trap 'echo TERM > got; exit 0' TERM
touch started
while :; do sleep 0.05; done
EOS
chmod +x fake-staprun
export SYSTEMTAP_STAPRUN=$PWD/fake-staprun
"$STAP" -r "$KVER" -G stp_bufsize=2097152 -e 'probe begin { println("x") }' > out 2> err &
p=$!
k=0
until [ -e started ] || [ $k -ge 1200 ]; do sleep 0.1; k=$((k + 1)); done
[ -e started ] || { cat err; echo "staprun never started"; exit 1; }
kill -KILL $p
wait $p 2>/dev/null || true
k=0
until [ -e got ] || [ $k -ge 50 ]; do sleep 0.1; k=$((k + 1)); done
cat args
[ "$(cat got 2>/dev/null)" = TERM ] || { echo "staprun got no SIGTERM"; exit 1; }
case " $(cat args) " in *" -R "*) ;; *) echo "no -R for a cached module"; exit 1 ;; esac
# -G NAME=VALUE: a module parameter, after the module
case "$(cat args)" in *".ko stp_bufsize=2097152") ;; *) echo "-G misplaced"; exit 1 ;; esac
[ ! -s out ] || { echo "stap printed on stdout:"; cat out; exit 1; }
echo ok
