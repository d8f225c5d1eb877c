# The quiz through the real window, by mouse and keyboard, as a student uses it: the first two
# questions of the built-in quiz (answers read from assets/quiz/positional-encoding.json) are
# predicted, one with the mouse and one with the keys, and revealed; the panel that shows the
# answer opens beside the quiz with its widget outlined. Then a flashcard is flipped by a click
# and by Space and the next one comes with Enter; then a teach-back text is typed and an idea
# ticked. The saved state must hold the score, the card, the text and the tick.
source "$(dirname "$0")/lib.sh"
e2e_setup quiz "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)
quiz=$root/assets/quiz/positional-encoding.json
mkdir -p "$SHOTS/quiz"
echo '{"open_panels": ["quiz"], "presented_panel": "quiz", "quiz_question": 0}' >"$E2E_TMP/start.json"
e2e_start_lab --scene "$E2E_TMP/start.json"
question() { /usr/bin/python3 -c 'import json, sys; q = json.load(open(sys.argv[1]))["questions"][int(sys.argv[2])]; print(eval(sys.argv[3]))' "$quiz" "$@"; }

# Question 1 with the mouse: the right choice, then Reveal (or the number typed, then Enter).
e2e_shot quiz/question1 >/dev/null
if [[ $(question 0 "'number' in q") == True ]]; then
    e2e_click quiz.number
    e2e_type "$(question 0 "q['number']['answer']")" # Enter in the field reveals
else
    e2e_click "quiz.choice$(question 0 "q['answer'] + 1")"
    e2e_click quiz.reveal
fi
e2e_settle
shown=$(question 0 "(q['show'].get('highlight') or ['quiz.verdict'])[0]")
e2e_point "$shown" >/dev/null || e2e_fail "the reveal did not show $shown"
e2e_point quiz.verdict >/dev/null || e2e_fail "no verdict after the reveal"
e2e_shot quiz/revealed1 >/dev/null

# Question 2 with the keys: the quiz keeps the focus after the reveal opened a panel.
e2e_press Return
e2e_settle
if [[ $(question 1 "'number' in q") == True ]]; then
    e2e_click quiz.number
    e2e_type "$(question 1 "q['number']['answer']")"
else
    e2e_press "$(question 1 "q['answer'] + 1")"
    e2e_press Return
fi
e2e_settle
e2e_shot quiz/revealed2 >/dev/null

# Flashcards: a click flips to the back, Space flips to the front, Enter goes to the next card.
e2e_click quiz.tab_cards
e2e_settle
front=$(e2e_shot quiz/card_front)
e2e_click quiz.card
back=$(e2e_shot quiz/card_back)
e2e_differ "$front" "$back"
e2e_press space
e2e_press Return
e2e_shot quiz/card_next >/dev/null

# Teach-back: type an explanation, tick the first idea.
e2e_click quiz.tab_teach
e2e_settle
e2e_click quiz.teach_text
xdotool type --window "$E2E_WINDOW" --delay 30 "Adding is commutative, so without positions the order is lost."
e2e_click quiz.tick1
e2e_shot quiz/teach_back >/dev/null
e2e_quit
e2e_check "s['readouts']['quiz']['answered'] == 2 and s['readouts']['quiz']['right'] == 2" "two questions answered right"
e2e_check "s['quiz_card'] == 1 and s['quiz_card_back'] == False" "Enter moved to the next card, showing its front"
e2e_check "s['playing'] == False" "Space flipped the card and did not start pos A playing"
e2e_check "s['teach_back_text'].startswith('Adding is commutative')" "the typed explanation is in the scene"
e2e_check "s['teach_back_ticked'] == [0]" "the first idea is ticked"
e2e_check "0 in s['readouts']['quiz']['mentioned']" "the hint marks the first idea as mentioned"
e2e_pass
