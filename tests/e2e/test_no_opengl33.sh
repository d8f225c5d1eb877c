# A display whose OpenGL is older than 3.3 (Mesa told to offer only 3.0): a clear message and
# exit 1, for the window and for the screenshot command, and no PNG left behind.
source "$(dirname "$0")/lib.sh"
e2e_setup no_opengl33 "$@"
export MESA_GL_VERSION_OVERRIDE=3.0
for args in "" "screenshot --out $E2E_TMP/never.png"; do
    code=0
    # shellcheck disable=SC2086 # split the argument list on purpose
    "$PELAB" $args >"$E2E_TMP/out" 2>"$E2E_TMP/err" || code=$?
    [[ $code -eq 1 ]] || e2e_fail "pelab $args exited $code, expected 1: $(cat "$E2E_TMP/err")"
    grep -q "OpenGL 3.3" "$E2E_TMP/err" || e2e_fail "no OpenGL 3.3 message: $(cat "$E2E_TMP/err")"
done
[[ ! -e "$E2E_TMP/never.png" ]] || e2e_fail "a PNG was written without a GL context"
e2e_pass
