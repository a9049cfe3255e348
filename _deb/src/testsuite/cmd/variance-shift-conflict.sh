# One bit shift per statistic: @variance(s, 4) and @variance(s, 8) of
# the same statistic are refused (pass 3), naming both shifts.
err=$("$STAP" -p3 -e '
global s
probe begin { s <<< 1; println(@variance(s, 4)); println(@variance(s, 8)) }
' 2>&1 >/dev/null) && { echo "stap -p3 accepted two shifts"; exit 1; }
case $err in
*"<input>:3:58: error: statistic 's' is read with @variance bit shifts 4 and 8"*) ;;
*) echo "unexpected error: $err"; exit 1 ;;
esac
# the same shift twice, and a read without one, are fine
"$STAP" -p3 -e '
global s
probe begin { s <<< 1; println(@variance(s, 4), @variance(s), @variance(s, 4)) }
' >/dev/null || { echo "stap -p3 refused one shift"; exit 1; }
exit 0
