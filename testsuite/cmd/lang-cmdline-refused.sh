# Command lines SystemTap refuses are refused, with a one-line error that
# names the option and the form it takes: unknown options, values of the
# wrong form (-D, -G, -x, -s, -S, -T, -p), -e twice, -c with -x, no script.
set -eu
. "$srcdir/cmd/lib/want.sh"
S='probe begin { }'
want_err "unrecognized option '--no-such-option'" -p2 --no-such-option -e "$S"
want_err "stap: -D takes NAME or NAME=VALUE" -p2 -D 'A=b c' -e "$S"
want_err "stap: -D takes NAME or NAME=VALUE" -p2 -D 1ABC -e "$S"
want_err "stap: -D takes NAME or NAME=VALUE" -p2 -D MAXACTION= -e "$S"
want_err "stap: -G takes NAME=VALUE" -p2 -G flag -e "$S"
want_err "stap: -x takes a process id, not 'abc'" -p2 -x abc -e "$S"
want_err "stap: -s takes a buffer size in MB, 1 to 4095, not '4096'" -p2 -s 4096 -e "$S"
want_err "stap: -S takes SIZE[,N]" -p2 -S 10,x -e "$S"
want_err "stap: -T takes a timeout in seconds, from 1, not '0'" -p2 -T 0 -e "$S"
want_err "stap: -p takes 1 to 5" -p 6 -e "$S"
want_err "stap: -e given twice" -p2 -e "$S" -e "$S"
want_err "stap: -c CMD and -x PID name the target process twice" -p2 -c true -x 1 -e "$S"
want_err "stap: no script given" -p2
# the accepted forms
want '# probes
begin /* <- <input>:1:7 */' -p2 -D MAXACTION=-1 -D STP_NO_OVERLOAD -G g=some-value -s 4095 -S 10,2 -T 5 -x 1 -e "$S"
echo ok
