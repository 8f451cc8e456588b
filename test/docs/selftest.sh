#!/bin/sh
# check_figures.sh must fail on a figure changed on either side, on one
# missing from docs/, on one marked twice, on a line that does not link to
# its page and on a README that quotes nothing, and pass on a copy that
# agrees.
#
#   selftest.sh CHECK_FIGURES_SH
set -eu
check=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "figures selftest: $*" >&2; exit 1; }
mkdir "$work/docs"

page() {
    printf '# Figures\n\n| put | <!--fig:put-->0.26<!--/fig--> |\n' >"$work/docs/perf.md"
    printf 'Start-up <!--fig:start-->186 ms<!--/fig-->.\n' >>"$work/docs/perf.md"
}
readme() {
    printf '# x\n\n| put | <!--fig:put-->0.26<!--/fig--> | [p](docs/perf.md) |\n' >"$work/README.md"
    printf 'start <!--fig:start-->186 ms<!--/fig--> ([p](docs/perf.md))\n' >>"$work/README.md"
}
expect() { # WHAT PATTERN: the check fails and says PATTERN
    if out=$(sh "$check" "$work/README.md" "$work/docs" 2>&1); then
        fail "$1 passed: $out"
    fi
    echo "$out" | grep -q "$2" || fail "$1: no '$2' in: $out"
}

page; readme
out=$(sh "$check" "$work/README.md" "$work/docs") || fail "agreeing copies failed: $out"
echo "$out" | grep -q '^2 figures' || fail "not 2 figures counted: $out"

sed -i 's/0\.26/0.25/' "$work/docs/perf.md"
expect "a figure changed in docs/" 'figure put is "0.26" here but "0.25" in docs/perf.md'
page; sed -i 's/186 ms/185 ms/' "$work/README.md"
expect "a figure changed in the README" 'figure start is "185 ms" here but "186 ms"'
readme; sed -i 's/<!--fig:start-->186 ms<!--\/fig-->/186 ms/' "$work/docs/perf.md"
expect "a figure missing from docs/" 'figure start ("186 ms") is marked in no page'
page; printf 'again <!--fig:put-->0.26<!--/fig-->\n' >"$work/docs/other.md"
expect "a figure marked twice" 'figure put is marked again'
rm "$work/docs/other.md"; sed -i 's/(\[p\](docs\/perf.md))//' "$work/README.md"
expect "a line without the link" 'figure start comes from docs/perf.md, which this line does not link to'
readme; sed -i 's/<!--\/fig--> |/ |/' "$work/README.md"
expect "a broken marker" 'not <!--fig:ID-->TEXT<!--/fig--> on one line'
printf '# nothing quoted\n' >"$work/README.md"
expect "a README that quotes nothing" 'quotes no marked figure'
echo "figures selftest: every broken case fails"
