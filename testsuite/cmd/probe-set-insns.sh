# The per-hit cost of a probe set against the least a module can do, in
# guest instructions, on each kernel line of the lab (issue 25: at most
# 1.2x).  bench/probe-vs-handwritten --ftrace --insns: stap's
# `kernel.function("vfs_read*").call { n++ }` (its call sites run by one
# ftrace_ops) and hw_ftrace_mass.ko (an ftrace_ops on the same call
# sites counting per CPU) each run rounds of 1-byte reads while a qemu
# plugin counts the instructions the guest runs (bench/insn_count.c), so
# the figures do not move with the host's load: rounds differ by a tenth
# of an instruction per read.  Asserts the ratio of the per-hit counts
# and that each module counted every read.
set -eu
n=20000
for line in $(sed -n 's/^\([^#[:space:]][^[:space:]]*\).*/\1/p' "$srcdir/lab/lines"); do
    kver=$("$srcdir/lab/kver" "$line")
    out=$("$srcdir/bench/probe-vs-handwritten" --prefix "$P" --kver "$kver" \
          --ftrace --insns --passes 1 $n)
    echo "$out" | sed "s/^/$line: /"
    echo "$out" | awk -v n=$n -v line="$line" '
    /^lowest figures: / {
        r = $NF; sub(/x$/, "", r)
        if (r + 0 <= 0 || r + 0 > 1.2) { print line ": per-hit ratio " r " above 1.2"; bad = 1 }
        seen = 1
    }
    /^hits counted per run/ {
        h = $0; sub(/ \(expected.*/, "", h)
        split(h, f, /[ ,]+/)
        for (i in f) if (f[i] ~ /^[0-9]+$/ && f[i] + 0 < 3 * n) { print line ": a module missed reads: " $0; bad = 1 }
        hits = 1
    }
    END { if (!seen || !hits) { print line ": no figures"; bad = 1 } exit bad }'
done
