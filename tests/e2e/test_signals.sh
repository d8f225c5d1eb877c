# SIGTERM, SIGINT and SIGHUP end the real window the way Ctrl+Q does: the class's work is
# written to --state-out (a valid scene with what the student changed), the settings are saved,
# and the exit status is 128 + the signal. Once they killed the app and lost the session. The
# app is at rest (waiting up to 5 s for events) when the signal comes: it must still end within
# a second.
source "$(dirname "$0")/lib.sh"
e2e_setup signals "$@"
for signal in TERM INT HUP; do
    e2e_start_lab
    e2e_press Right # pos A moves: work the state file must keep
    e2e_settle # the frames owed to the key are drawn; the loop waits for events again
    rm -f "$E2E_STATE"
    kill -s "$signal" "$E2E_APP_PID"
    waited=0
    while kill -0 "$E2E_APP_PID" 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
        ((waited < 10)) || e2e_fail "pelab still running 1 s after SIG$signal"
    done
    code=0
    wait "$E2E_APP_PID" || code=$?
    E2E_APP_PID=""
    expected=$((128 + $(kill -l "$signal")))
    [[ $code -eq $expected ]] || e2e_fail "SIG$signal: exit status $code, expected $expected: $(cat "$E2E_TMP/app.err")"
    e2e_check "s['format'] == 'pelab-scene' and s['pos_a'] > 3 and 'readouts' in s" \
        "SIG$signal: the state file holds the scene with the student's change"
    e2e_note "SIG$signal: state written, exit $code"
done
e2e_pass
