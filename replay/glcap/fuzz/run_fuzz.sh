#!/bin/sh
# Fuzzes the .glcap reader and the payload cursor with libFuzzer (clang).
# Not part of the default build or test run.
#
#   replay/glcap/fuzz/run_fuzz.sh [SECONDS] [WORKDIR]     (defaults: 60, /tmp/glcap-fuzz)
#
# Needs clang with compiler-rt (Debian: clang, libclang-rt-dev), libzstd-dev,
# libxxhash-dev. Findings (crash-*, leak-*, timeout-*) land in WORKDIR; the
# corpus grows in WORKDIR/corpus and is reused by the next run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
work=${2:-/tmp/glcap-fuzz}
mkdir -p "$work/corpus"
lib="$here/../glcap_format.c $here/../glcap_writer.c $here/../glcap_reader.c $here/../glcap_codec.c"
flags="-std=c11 -D_GNU_SOURCE -g -O1 -I$here/.."

# shellcheck disable=SC2086 # word splitting of $lib/$flags is intended
clang $flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    $lib "$here/fuzz_glcap_reader.c" -lzstd -lxxhash -o "$work/fuzz_glcap_reader"
# shellcheck disable=SC2086
clang $flags $lib "$here/make_seeds.c" -lzstd -lxxhash -o "$work/make_seeds"
"$work/make_seeds" "$work/corpus"

cd "$work"
exec ./fuzz_glcap_reader -max_total_time="$secs" -max_len=8192 -rss_limit_mb=2048 \
    -print_final_stats=1 corpus
