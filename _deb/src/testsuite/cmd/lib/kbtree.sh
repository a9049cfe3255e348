# cmd/lib/kbtree.sh - sourced by cmd tests that need a second kernel build
# tree (`. "$srcdir/cmd/lib/kbtree.sh"`; run-tests runs only cmd/*.sh):
#   copy_kbuild_tree DIR KVER   DIR: symlinks to /lib/modules/KVER/build's
#                               entries, with include/ a real copy (so a
#                               test may change a generated header)
copy_kbuild_tree() {
    local dir=$1 src e
    src=$(readlink -f "/lib/modules/$2/build")
    mkdir "$dir"
    for e in "$src"/* "$src"/.config; do
        [ "$(basename "$e")" = include ] || ln -s "$(readlink -f "$e")" "$dir"/
    done
    cp -r "$src/include" "$dir/include"
}
