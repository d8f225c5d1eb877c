# Drag and drop through the real window, as from a file manager (tests/e2e/xdnd_drop.py speaks
# the XDND protocol that xdotool cannot): a dropped scene opens, a dropped lesson starts, and a
# dropped file that is neither, or a lesson with a value of the wrong type, says why in a message
# and changes nothing.
source "$(dirname "$0")/lib.sh"
e2e_setup drop "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$SHOTS/drop"
/usr/bin/python3 -c 'import Xlib' 2>/dev/null || e2e_fail "python3-xlib is missing (scripts/deps.sh test installs it)"
drop() { # FILE: dropped at the middle of the window
    local x y
    eval "$(xdotool getwindowgeometry --shell "$E2E_WINDOW")"
    timeout 20 /usr/bin/python3 "$(dirname "$0")/xdnd_drop.py" "$E2E_WINDOW" $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) "$1" ||
        e2e_fail "the window did not take the drop of $1"
    e2e_settle # the dropped file opened (or its message shown)
}
echo '{"pos_a": 42, "d_model": 64, "theme": "light"}' >"$E2E_TMP/dropped scene.json"
printf 'not a scene at all\n' >"$E2E_TMP/notes.txt"
e2e_start_lab
drop "$E2E_TMP/dropped scene.json" # a space in the name: the URI is percent-encoded
e2e_shot drop/scene >/dev/null
drop "$E2E_TMP/notes.txt"
e2e_point notice.text >/dev/null || e2e_fail "a file that is not a scene gave no message"
e2e_shot drop/notice >/dev/null
e2e_press Return
e2e_quit
e2e_check "s['pos_a'] == 42 and s['d_model'] == 64 and s['theme'] == 'light'" "the dropped scene is open, and the bad file changed nothing"
e2e_start_lab
drop "$root/assets/lessons/frequencies.json"
e2e_shot drop/lesson >/dev/null
# A lesson with a value of the wrong type once quit the app, and --state-out was never written:
# now it is a message, the running lesson goes on, and the session ends as usual.
echo '{"format":"pelab-lesson","version":1,"title":"t","steps":[{"caption":"x","scene":{"playing":1}}]}' >"$E2E_TMP/typed.json"
drop "$E2E_TMP/typed.json"
e2e_point notice.text >/dev/null || e2e_fail "a lesson with a wrong type gave no message"
e2e_shot drop/wrong_type >/dev/null
e2e_press Return
e2e_quit
e2e_check "s['readouts']['lesson']['title'] == 'Frequencies and wavelengths'" "the dropped lesson started, and the lesson with a wrong type left it running"
e2e_pass
