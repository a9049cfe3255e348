# Pass 2 rejects bad scripts with messages that say what and where, exit 1.
check() {  # script, expected text in stderr
    err=$("$STAP" -p2 -e "$1" 2>&1 >/dev/null) && rc=0 || rc=$?
    if [ "$rc" != 1 ]; then
        echo "'$1': exit status $rc, expected 1"; echo "$err"; exit 1
    fi
    case $err in
        *"$2"*) ;;
        *) echo "'$1': stderr lacks: $2"; echo "$err"; exit 1 ;;
    esac
}
check 'probe begn { }' "<input>:1:7: semantic error: unknown probe point family 'begn'; similar: begin"
check 'probe begin { x = 1; x = "a" }' "<input>:1:24: semantic error: assignment of a string to a long"
check 'probe begin { foo(1) }' "unresolved function 'foo'"
check 'probe begin { exit(1) }' "function 'exit' is not defined with 1 argument"
check 'probe begin { printf("%d %s\n", 1) }' "takes 2 arguments but 1 is given"
check 'probe begin { printf("%d\n", "s") }' "expected a long here, found a string"
check 'probe timer.ms(0) { }' "the timer period must be positive"
check 'probe kprobe.function("vfs_*") { }' "does not take wildcards"
check 'function f(a) { return a } probe begin { f(1); f("x") }' "type mismatch"
check 'probe begin { x = y }' "cannot tell the type of 'y'"
exit 0
