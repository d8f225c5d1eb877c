#include "io/handout_html.h"

#include <algorithm>
#include <cstdio>

namespace pelab {

// The five characters with a meaning in HTML escaped.
std::string HtmlText(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// A caption as HTML: the words between stars emphasised, as the lesson bar draws them.
std::string CaptionHtml(const std::string& caption) {
    std::string out;
    bool open = false;
    for (const char c : caption) {
        if (c == '*') {
            out += open ? "</em>" : "<em>";
            open = !open;
        } else {
            out += HtmlText(std::string(1, c));
        }
    }
    if (open) out += "</em>";
    return out;
}

std::string HandoutHtml(const Lesson& lesson, const std::vector<std::string>& pictures,
                        bool with_notes) {
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
        HtmlText(lesson.title) +
        "</title>\n<style>\nbody{font-family:sans-serif;max-width:52em;margin:2em "
        "auto;line-height:1.4}\nsection{page-break-inside:avoid;margin-bottom:"
        "2em}\nimg{width:100%;border:1px solid #999}\nem{font-style:normal;font-"
        "weight:bold}\n.notes{color:#333;border-left:3px solid #999;padding-left:"
        "0.8em}\n</style></head><body>\n<h1>" +
        HtmlText(lesson.title) + "</h1>\n";
    const std::size_t steps = std::min(pictures.size(), lesson.steps.size());
    for (std::size_t k = 0; k < steps; ++k) {
        const LessonStep& step = lesson.steps[k];
        const std::string number = std::to_string(k + 1);
        html += "<section>\n<h2>Step " + number + " of " + std::to_string(lesson.steps.size()) +
                "</h2>\n<img src=\"" + HtmlText(pictures[k]) + "\" alt=\"Step " + number +
                "\">\n<p>" + CaptionHtml(step.caption) + "</p>\n";
        if (with_notes && !step.notes.empty())
            html += "<p class=\"notes\">" + HtmlText(step.notes) + "</p>\n";
        html += "</section>\n";
    }
    html += "</body></html>\n";
    return html;
}

} // namespace pelab

namespace pelab {

std::string HandoutPictureName(int k) {
    char name[32];
    std::snprintf(name, sizeof name, "step-%02d.png", k + 1);
    return name;
}

std::vector<std::string> HandoutPicturesNamedBy(const std::string& html) {
    std::vector<std::string> names;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t at = html.find("step-"); at != std::string::npos;
         at = html.find("step-", at + 1)) {
        std::size_t end = at + 5;
        while (end < html.size() && digit(html[end]) && end - at < 5 + 6)
            ++end;
        if (end - at < 5 + 2 || html.compare(end, 5, ".png\"") != 0) continue;
        // The page quotes each name whole (src="step-01.png"): "xstep-01.png" or
        // "pictures/step-01.png" is not a picture beside the page.
        if (at == 0 || html[at - 1] != '"') continue;
        std::string name = html.substr(at, end + 4 - at);
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(std::move(name));
    }
    return names;
}

} // namespace pelab
