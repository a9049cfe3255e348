# translator/ is laid out by pass with data flowing forward only: no
# include cycle between pass directories, each pass reached only through
# its interface header (testsuite/layout-check).
"$srcdir/layout-check" "$srcdir/../translator"
