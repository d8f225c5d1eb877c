# Settings faults: a binary imgui.ini, an imgui.ini that is a folder, a FIFO, a symbolic link to
# a file that is not settings and to one that is, a 2 MiB file, a full disk, no HOME at all, and
# a settings folder that cannot be created. Each time the real window comes up, quits cleanly
# on Ctrl+Q (a FIFO once made it never exit), and what is not a settings file is left byte for
# byte as it was (a link to /etc/passwd once had its target overwritten), with one message.
source "$(dirname "$0")/lib.sh"
e2e_setup settings_faults "$@"
config=$XDG_CONFIG_HOME/pelab
mkdir -p "$config"
check_once() { # MESSAGE-PATTERN
    local count
    count=$(grep -c "$1" "$E2E_TMP/app.err" || true)
    [[ "$count" -eq 1 ]] || e2e_fail "expected the message '$1' once, got $count: $(cat "$E2E_TMP/app.err")"
}
same_bytes() { # FILE COPY MESSAGE
    cmp -s "$1" "$2" || e2e_fail "$3"
}
# 1. Binary garbage where the settings were: left alone, defaults used.
head -c 20000 /dev/urandom >"$config/imgui.ini"
cp "$config/imgui.ini" "$E2E_TMP/garbage.copy"
e2e_start_lab
e2e_quit
e2e_check "s['theme'] == 'dark' and s['font_scale'] == 1" "garbage settings must leave the defaults"
same_bytes "$config/imgui.ini" "$E2E_TMP/garbage.copy" "a file that is not settings was overwritten"
check_once "leaving the settings file alone"
# 2. imgui.ini is a folder (ImGui itself would try a 2^63-byte allocation on it).
rm -f "$config/imgui.ini"
mkdir "$config/imgui.ini"
e2e_start_lab
e2e_quit
check_once "is a folder"
rmdir "$config/imgui.ini"
# 3. A FIFO: ImGui's own fopen would wait for a writer forever; the app neither reads nor writes it.
mkfifo "$config/imgui.ini"
e2e_start_lab
e2e_quit
[[ -p "$config/imgui.ini" ]] || e2e_fail "the FIFO was replaced"
check_once "not a regular file"
rm -f "$config/imgui.ini"
# 4. A symbolic link to a file that is not settings (as root, a link to /etc/passwd): untouched.
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$E2E_TMP/passwd"
cp "$E2E_TMP/passwd" "$E2E_TMP/passwd.copy"
ln -s "$E2E_TMP/passwd" "$config/imgui.ini"
e2e_start_lab
e2e_press ctrl+equal # a change of text size: settings that want saving
e2e_quit
same_bytes "$E2E_TMP/passwd" "$E2E_TMP/passwd.copy" "the link's target was overwritten"
[[ -L "$config/imgui.ini" ]] || e2e_fail "the link was replaced"
check_once "does not hold PE Lab settings"
rm -f "$config/imgui.ini"
# 5. A symbolic link to real settings (a dotfile setup): followed, the target updated, still a link.
printf '[PELab][View]\nTheme=light\n' >"$E2E_TMP/dotfiles.ini"
ln -s "$E2E_TMP/dotfiles.ini" "$config/imgui.ini"
e2e_start_lab
e2e_quit
e2e_check "s['theme'] == 'light'" "settings read through a link"
[[ -L "$config/imgui.ini" ]] || e2e_fail "the link to the settings was replaced by a file"
grep -q '^\[Window\]' "$E2E_TMP/dotfiles.ini" || e2e_fail "the link's target was not updated"
rm -f "$config/imgui.ini"
# 6. A file over 1 MiB: left alone.
{ printf '[PELab][View]\n'; head -c 2100000 /dev/zero | tr '\0' 'x' | fold -w 100 | sed 's/^/Note=/'; } >"$config/imgui.ini"
cp "$config/imgui.ini" "$E2E_TMP/big.copy"
e2e_start_lab
e2e_quit
same_bytes "$config/imgui.ini" "$E2E_TMP/big.copy" "a 2 MiB settings file was overwritten"
check_once "larger than 1024 KiB"
rm -f "$config/imgui.ini"
# 7. A full disk: the old settings stay whole (a non-atomic write once truncated them).
full=$E2E_TMP/full
mkdir -p "$full"
if mount -t tmpfs -o size=32k tmpfs "$full" 2>/dev/null; then
    mkdir -p "$full/pelab"
    printf '[PELab][View]\nTheme=high-contrast\n' >"$full/pelab/imgui.ini"
    cp "$full/pelab/imgui.ini" "$E2E_TMP/full.copy"
    head -c 1000000 /dev/zero >"$full/filler" 2>/dev/null || true
    XDG_CONFIG_HOME=$full e2e_start_lab
    e2e_quit
    same_bytes "$full/pelab/imgui.ini" "$E2E_TMP/full.copy" "a full disk truncated the settings"
    check_once "No space left on device"
    umount "$full"
else
    e2e_note "not root: the full-disk case is skipped"
fi
# 8. Neither HOME nor XDG_CONFIG_HOME.
saved_home=$HOME saved_config=$XDG_CONFIG_HOME
unset HOME XDG_CONFIG_HOME
e2e_start_lab
e2e_quit
export HOME=$saved_home XDG_CONFIG_HOME=$saved_config
check_once "neither XDG_CONFIG_HOME nor HOME is set"
# 9. A settings folder that cannot be created (/proc takes no new folders, even for root).
XDG_CONFIG_HOME=/proc/pelab-cannot-exist e2e_start_lab
e2e_quit
check_once "cannot use the settings folder"
e2e_pass
