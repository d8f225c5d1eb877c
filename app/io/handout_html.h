// handout_html.h — a lesson's handout page (pelab lesson handout, gl/session.cpp): the title, and
// for each step its picture, its caption (the words between stars emphasised, as the lesson bar
// draws them) and the presenter's notes. Plain text in, HTML out: no window, no GL.
#pragma once

#include "io/lesson.h"

#include <string>
#include <vector>

namespace pelab {

/// text with the five characters that mean something in HTML (& < > " ') escaped.
std::string HtmlText(const std::string& text);

/// A caption as HTML: each *starred* span in <em>, everything else escaped; an unclosed star
/// emphasises to the end.
std::string CaptionHtml(const std::string& caption);

/// The handout's index.html: pictures[k] is the file name of step k's picture, beside the page.
/// Steps past the end of pictures (a capture that failed) are left out. The speaker notes are
/// the teacher's: in the page only with with_notes (`pelab lesson handout --notes`).
std::string HandoutHtml(const Lesson& lesson, const std::vector<std::string>& pictures,
                        bool with_notes = false);

/// The file name of step k's picture (0-based): "step-01.png" for k = 0.
std::string HandoutPictureName(int k);

/// The step pictures an earlier handout's index.html names (each "step-NN.png" in its text, each
/// once, in order): a new, shorter handout removes those it does not make again, and nothing
/// else (a file that only looks like one of ours is someone's own).
std::vector<std::string> HandoutPicturesNamedBy(const std::string& html);

} // namespace pelab
