# The Debian package: `cpack -G DEB` in the build folder, unpacked into a temporary root with
# dpkg -x (no installation), then the packaged binary runs from there: --version and an export.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$build"
cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/out/pelab_*.deb)
# Read whole first: grep -q stops at the first match, and under pipefail the writer's SIGPIPE
# failed the pipeline now and then.
info=$(dpkg-deb --info "$deb")
grep -q 'Package: pelab' <<<"$info" || { echo "FAIL: not a pelab package"; exit 1; }
dpkg -x "$deb" "$work/root"
for file in usr/bin/pelab usr/share/applications/pelab.desktop \
    usr/share/icons/hicolor/scalable/apps/pelab.svg usr/share/man/man1/pelab.1 \
    usr/share/pelab/scenes/compare-3-vs-50.json; do
    [[ -f "$work/root/$file" ]] || { echo "FAIL: $file is not in the package"; dpkg -c "$deb"; exit 1; }
done
version=$("$work/root/usr/bin/pelab" --version)
[[ "$version" == "pelab "* ]] || { echo "FAIL: --version said '$version'"; exit 1; }
"$work/root/usr/bin/pelab" export pe --max-len 2 --d-model 2 >"$work/pe.csv"
# Row 1 against Python's float32 rounding of sin(1) and cos(1).
expected=$(python3 -c "import math, struct; f = lambda v: '%.9g' % struct.unpack('f', struct.pack('f', v))[0]; print('1,' + f(math.sin(1)) + ',' + f(math.cos(1)))")
[[ "$(sed -n 3p "$work/pe.csv")" == "$expected" ]] || { echo "FAIL: export from the package (expected $expected)"; cat "$work/pe.csv"; exit 1; }
grep -q 'readouts' "$work/root/usr/share/man/man1/pelab.1" || { echo "FAIL: the man page lacks the commands"; exit 1; }
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) installs and runs: $version"
