#!/usr/bin/env bash
# Builds the browser edition of PE Lab (docs/web.md): the same core and app sources compiled by
# Emscripten to WebAssembly and WebGL 2, into build-web/site/ (index.html, index.js, index.wasm,
# index.data: fonts, lessons, scenes). Everything comes from Debian's packages.
# Usage: scripts/web.sh [--serve [PORT]] [--single-file] [--build-dir DIR]
#   --serve        then serve the page on http://localhost:PORT/ (8000) until Ctrl+C
#   --single-file  also build build-web/pelab.html: one self-contained page (wasm and data
#                  inside) that opens from a USB stick or an e-mail (file://), assembled from
#                  the page's files by scripts/web_single_file.py
# Compiles in batches (cmake/UnityBatches.cmake) through ccache when it is installed (scripts/ccache.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$root/build-web
serve=0
port=8000
single=0
while (($#)); do
    case "$1" in
        --serve)
            serve=1
            if [[ ${2:-} =~ ^[0-9]+$ ]]; then port=$2; shift; fi ;;
        --single-file) single=1 ;;
        --build-dir) build_dir=$(realpath -m "$2"); shift ;;
        -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "web.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

# Emscripten and what the page is built from, from Debian's archive.
packages=(emscripten dpkg-dev xz-utils nlohmann-json3-dev libeigen3-dev libstb-dev fonts-inter
          fonts-dejavu-core python3)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$package")
done
as_root=()
[[ $(id -u) -eq 0 ]] || as_root=(sudo)
if ((${#missing[@]})); then
    echo "web.sh: installing ${missing[*]}"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}"
fi

staging=$build_dir/staging
mkdir -p "$staging/include" "$staging/fonts"

# Dear ImGui 1.86, the version the desktop build links, from Debian's source package: the
# desktop package ships no backends' sources. apt-get source needs a deb-src entry.
imgui_version=$(dpkg-query -W -f='${Version}' libimgui-dev 2>/dev/null || true)
imgui_version=${imgui_version:-1.86+ds-1}
if [[ ! -f $staging/imgui/imgui.cpp ]]; then
    if ! apt-get source --print-uris -qq imgui >/dev/null 2>&1 ||
        [[ -z $(apt-get source --print-uris -qq imgui 2>/dev/null) ]]; then
        echo "web.sh: adding a deb-src entry for Debian's source packages"
        # shellcheck disable=SC1091
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
            printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                "$codename" | "${as_root[@]}" tee /etc/apt/sources.list.d/pelab-src.sources >/dev/null
        else
            grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | head -1 | sed 's/^deb /deb-src /' |
                "${as_root[@]}" tee /etc/apt/sources.list.d/pelab-src.list >/dev/null
        fi
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    fi
    download=$build_dir/imgui-source
    rm -rf "$download" && mkdir -p "$download"
    (cd "$download" && apt-get source --download-only -qq imgui 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    tarball=$(ls "$download"/imgui_*.orig.tar.* 2>/dev/null | head -1)
    [[ -n $tarball ]] || { echo "web.sh: apt-get source imgui downloaded nothing" >&2; exit 1; }
    rm -rf "$staging/imgui" && mkdir -p "$staging/imgui"
    tar -xf "$tarball" -C "$staging/imgui" --strip-components=1
    echo "web.sh: Dear ImGui from $(basename "$tarball") (desktop links $imgui_version)"
fi

# The header-only libraries, alone: -I/usr/include would hide emcc's own libc headers.
ln -sfn /usr/include/nlohmann "$staging/include/nlohmann"
ln -sfn /usr/include/eigen3/Eigen "$staging/include/Eigen"
ln -sfn /usr/include/eigen3/unsupported "$staging/include/unsupported"
ln -sfn /usr/include/stb/stb_image_write.h "$staging/include/stb_image_write.h"
# The fonts, at the paths widgets/fonts.cpp looks for them.
cp -u /usr/share/fonts/opentype/inter/Inter-Regular.otf /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
    "$staging/fonts/"

# Debian's emcc runs its JavaScript tools with the system's node, which finds Debian's acorn
# module here (a node from elsewhere does not look in /usr/share/nodejs by itself).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# shellcheck source=ccache.sh
source "$root/scripts/ccache.sh"
# emcc runs its clang through EM_COMPILER_WRAPPER (CMake's launcher would wrap emcc itself).
((${#PELAB_LAUNCHER[@]})) && export EM_COMPILER_WRAPPER=ccache
emcmake cmake -S "$root" -B "$build_dir/page" -DCMAKE_BUILD_TYPE=Release -DPELAB_UNITY=ON \
    -DPELAB_WEB_STAGING="$staging" >/dev/null
cmake --build "$build_dir/page" -j"$(nproc)" --target pelab_web
site=$build_dir/site
mkdir -p "$site"
cp "$build_dir/page/bin/"index.{html,js,wasm,data} "$site/"
echo "web.sh: built $site ($(du -sh "$site" | cut -f1))"
if ((single)); then
    python3 "$root/scripts/web_single_file.py" "$site" "$build_dir/pelab.html"
    echo "web.sh: built $build_dir/pelab.html ($(du -h "$build_dir/pelab.html" | cut -f1)): open it from any folder"
fi
if ((serve)); then
    echo "web.sh: serving $site on http://localhost:$port/ (Ctrl+C stops)"
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
fi
