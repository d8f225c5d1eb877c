# Sourced by the build scripts (build.sh, web.sh): the compiler cache, when ccache is installed
# (scripts/deps.sh test installs it). Sets PELAB_LAUNCHER to the CMake options that put ccache in
# front of the compiler (empty without ccache). The cache lives in the user's cache folder, not
# in the clone, and compiler paths are taken relative to the clones' parent folder with the
# working folder left out of the hash, so a new clone at another path (CI's, right after a
# session) reuses what the last one compiled: a hit takes about 0.01 s (docs/testing.md).
# PELAB_CCACHE=0 builds without it.
PELAB_LAUNCHER=()
if [[ ${PELAB_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null; then
    export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pelab-ccache}
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
    export CCACHE_NOHASHDIR=1
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
    PELAB_LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
