#!/usr/bin/env bash
# The bash completion of glreplay (completion/glreplay.bash or its installed copy) completes verbs,
# each verb's options, option values and, after `--`, the program's command line.
# usage: completion_test.sh COMPLETION_FILE     (77 when bash-completion is not installed)
set -uo pipefail
bc=/usr/share/bash-completion/bash_completion
if [ ! -f "$bc" ]; then
    echo "completion_test: SKIP: no $bc (package bash-completion)"
    exit 77
fi
# shellcheck disable=SC1090
source "$bc"
# shellcheck disable=SC1090
source "$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && touch a.glcap b.txt && mkdir pngs
failed=0
# complete LINE EXPECTED...: the completions of LINE (its last word, possibly empty, is completed)
# must contain every EXPECTED word.
check() {
    local line=$1
    shift
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    # compopt complains outside a real completion (from _command_offset); harmless here.
    _glreplay glreplay "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
    local want got=" ${COMPREPLY[*]} "
    for want in "$@"; do
        if [[ $want == "!"* ]]; then
            [[ $got != *" ${want#!} "* ]] && continue
        elif [[ $got == *" $want "* ]]; then
            continue
        fi
        echo "completion_test: '$line' -> [${COMPREPLY[*]}], expected $want"
        failed=1
    done
}
check "glreplay " run capture info replay state model debug dap profile
check "glreplay rep" replay
check "glreplay --v" --version
check "glreplay replay --" --loop --verify --png --benchmark --gl-errors --help
check "glreplay profile --pc" --pc-sampling --pc-mode
check "glreplay profile x.glcap --pc-mode " round-robin all
check "glreplay debug --" --break --hit --condition --draw --pixel --no-timing --json --list
check "glreplay model " a.glcap '!b.txt'
check "glreplay replay a.glcap --png " pngs '!a.glcap'
check "glreplay capture --frame 3 --out a.glcap -- glxgea" glxgears
[ $failed = 0 ] && echo "completion_test: ok"
exit $failed
