#!/usr/bin/env bash
# Downloads MLPerf Tiny's four int8 models from MLCommons' repository
# (github.com/mlcommons/tiny at a fixed commit, Apache License 2.0) into
# ../shared/models/mlperf_tiny (or DIR), checking each file's SHA-256.
# The tests in tests/tvm and scripts/mlperf-tiny.sh read them from there
# (configure with -DFFI_CORE_MLPERF_TINY_DIR=DIR for another place).
# Usage: scripts/fetch-mlperf-tiny.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/models/mlperf_tiny}
commit=1afd2c9820f795965a6134facd0b4dfae41ef23f
base="https://raw.githubusercontent.com/mlcommons/tiny/${commit}/benchmark/training"
# file, its folder in the repository, its SHA-256
models=(
  "kws_ref_model.tflite keyword_spotting aeea436800704fce17b17292e4412630ad856e9d777c044c64ef748a880bd0ae"
  "vww_96_int8.tflite visual_wake_words 597a384c8c2c8a1276f04702f25013b7838f2f814f1ca7c174d295b73e3d6b7b"
  "pretrainedResnet_quant.tflite image_classification 3c002613d1b2475eb51dd78dfb85a546c8ae658dee71cf6ade43b022fe205415"
  "ad01_int8.tflite anomaly_detection 87cf24194ef93d1d9b11a591d805526b98008e351655d29883c825c9c106ba24"
)
mkdir -p "$dir"
for entry in "${models[@]}"; do
  read -r file folder sum <<<"$entry"
  if [ -f "$dir/$file" ] && echo "$sum  $dir/$file" | sha256sum -c --status; then
    echo "fetch-mlperf-tiny: $file already here"
    continue
  fi
  curl -fsSL -o "$dir/$file.part" "$base/$folder/trained_models/$file"
  if ! echo "$sum  $dir/$file.part" | sha256sum -c --status; then
    rm -f "$dir/$file.part"
    echo "fetch-mlperf-tiny: $file does not have the expected SHA-256 $sum" >&2
    exit 1
  fi
  mv "$dir/$file.part" "$dir/$file"
  echo "fetch-mlperf-tiny: $file"
done
