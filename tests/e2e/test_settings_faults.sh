# Settings faults: a binary imgui.ini, an imgui.ini that is a folder, no HOME at all, and a
# settings folder that cannot be created. Each time the real window comes up with defaults,
# quits cleanly on Ctrl+Q, and the message (when there is one) says once what was ignored.
source "$(dirname "$0")/lib.sh"
e2e_setup settings_faults "$@"
config=$XDG_CONFIG_HOME/pelab
mkdir -p "$config"
check_once() { # MESSAGE-PATTERN
    local count
    count=$(grep -c "$1" "$E2E_TMP/app.err" || true)
    [[ "$count" -eq 1 ]] || e2e_fail "expected the message '$1' once, got $count: $(cat "$E2E_TMP/app.err")"
}
# 1. Binary garbage where the settings were: ignored line by line, defaults stay.
head -c 20000 /dev/urandom >"$config/imgui.ini"
e2e_start_lab
e2e_quit
e2e_check "s['theme'] == 'dark' and s['font_scale'] == 1" "garbage settings must leave the defaults"
# 2. imgui.ini is a folder (ImGui itself would try a 2^63-byte allocation on it).
rm -f "$config/imgui.ini"
mkdir "$config/imgui.ini"
e2e_start_lab
e2e_quit
check_once "ignoring saved settings"
rmdir "$config/imgui.ini"
# 3. Neither HOME nor XDG_CONFIG_HOME.
saved_home=$HOME saved_config=$XDG_CONFIG_HOME
unset HOME XDG_CONFIG_HOME
e2e_start_lab
e2e_quit
export HOME=$saved_home XDG_CONFIG_HOME=$saved_config
check_once "neither XDG_CONFIG_HOME nor HOME is set"
# 4. A settings folder that cannot be created (/proc takes no new folders, even for root).
XDG_CONFIG_HOME=/proc/pelab-cannot-exist e2e_start_lab
e2e_quit
check_once "cannot use the settings folder"
e2e_pass
