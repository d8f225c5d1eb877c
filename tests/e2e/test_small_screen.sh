# The room's screen, 1024x768, at text x2: the window fits the screen (it asks for 1280x800),
# a layout saved in a bigger window is tiled afresh, the keyboard help, the glossary and About
# open inside the screen, Esc closes the topmost window first, and F11 re-tiles the panels.
export E2E_SCREEN=1024x768x24
source "$(dirname "$0")/lib.sh"
e2e_setup small_screen "$@"
inside() { # inside NAME: the named rectangle lies within the 1024x768 window
    local deadline=$((SECONDS + 30))
    e2e_settle
    until [[ -f "$E2E_RECTS" ]] && grep -q "\"$1\"" "$E2E_RECTS"; do
        ((SECONDS <= deadline)) || e2e_fail "$1 never reported its rectangle (30 s)"
        e2e_nap 0.1
        e2e_settle
    done
    /usr/bin/python3 - "$E2E_RECTS" "$1" <<'PY' || e2e_fail "$1 is not inside the 1024x768 screen: $(grep -A5 "\"$1\"" "$E2E_RECTS" | tr -d ' \n')"
import json, sys
x0, y0, x1, y1, visible = json.load(open(sys.argv[1]))[sys.argv[2]]
sys.exit(0 if x0 >= -0.5 and y0 >= -0.5 and x1 <= 1024.5 and y1 <= 768.5 and visible >= 0.98 else 1)
PY
}
gone() { # gone NAME: the named window is no longer reported
    local deadline=$((SECONDS + 30))
    e2e_settle
    while grep -q "\"$1\"" "$E2E_RECTS"; do
        ((SECONDS <= deadline)) || e2e_fail "$1 is still open (30 s)"
        e2e_nap 0.1
        e2e_settle
    done
}
# A layout saved in a 1600x1000 window: the waves panel far down and right.
mkdir -p "$XDG_CONFIG_HOME/pelab"
cat >"$XDG_CONFIG_HOME/pelab/imgui.ini" <<'INI'
[PELab][View]
Theme=dark

[Window][Waves: frequency explorer###waves]
Pos=900,600
Size=700,400
Collapsed=0
INI
e2e_start_lab --font-scale 2
read -r x y width height < <(xdotool getwindowgeometry --shell "$E2E_WINDOW" |
    awk -F= '/^X|^Y|WIDTH|HEIGHT/ {printf "%s ", $2} END {print ""}')
((width <= 1024 && height <= 768)) || e2e_fail "the window is ${width}x${height} on a 1024x768 screen"
((x >= 0 && y >= 0 && x + width <= 1024 && y + height <= 768)) ||
    e2e_fail "the window at ${x},${y} (${width}x${height}) reaches past the screen"
e2e_shot small_screen_opened >/dev/null
inside waves.pair_slider
# F1: the keyboard help, inside; Esc closes it (and only it: the tiles stay).
e2e_press F1
inside window.keyboard_help
e2e_shot small_screen_help >/dev/null
e2e_press Escape
gone window.keyboard_help
# Help → Glossary: inside the screen at text x2 (it once opened 1224x816, off the edges).
e2e_click menu.help
e2e_click help.glossary
inside window.glossary
e2e_shot small_screen_glossary >/dev/null
e2e_press Escape
gone window.glossary
e2e_click menu.help
e2e_click help.about
inside window.about
e2e_press Escape
gone window.about
# F11 and back: the panels are tiled for the screen each time.
e2e_press F11
inside waves.pair_slider
e2e_press F11
inside waves.pair_slider
e2e_quit
e2e_pass
