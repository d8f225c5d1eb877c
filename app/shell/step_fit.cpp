#include "shell/step_fit.h"
#include "io/model_service.h"

#include "panels/panel_registry.h"
#include "shell/app.h"
#include "shell/app_ui.h"
#include "shell/headless_context.h"
#include "shell/lesson_player.h"
#include "widgets/frame.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace pelab {

float HighlightVisibleShare(const WidgetRecorder& recorder, const std::string& name, float width,
                            float bar_top) {
    const auto placed = recorder.layout.find(name);
    if (placed == recorder.layout.end()) return -1.0f;
    const auto shown = recorder.rects.find(name);
    if (shown == recorder.rects.end()) return 0.0f;
    WidgetRect seen = shown->second;
    seen.x0 = std::max(seen.x0, 0.0f), seen.y0 = std::max(seen.y0, 0.0f);
    seen.x1 = std::min(seen.x1, width), seen.y1 = std::min(seen.y1, bar_top);
    return VisibleFraction(placed->second.item, seen);
}

StepFit MeasureStepFit(App& app, int k, const SlideRoom& room) {
    const HeadlessContext context(room.width, room.height, kBaseFontPixels * room.text_scale);
    const float font_scale = app.view.font_scale;
    const bool recording = app.recorder.enabled;
    app.view.font_scale = room.text_scale;
    app.recorder.enabled = true;
    GoToStep(app, k);
    StepFit fit;
    // A few long frames: the step's glide lands and ImGui settles the windows' sizes and
    // scrollbars; the last frame records the rectangles afresh.
    // (and the step is fitted: drawn smaller until its highlights are whole, see FitStepToRoom).
    FrameInput input;
    input.delta_seconds = 0.1f;
    FrameSettler settler(6);
    for (int frame = 0; frame < kMaxSettleFrames; ++frame) {
        app.recorder.rects.clear();
        app.recorder.layout.clear();
        RunFrame(app, FrameOptions{}, input);
        if (settler.Settled(app.stats.settling)) break;
    }
    fit.scale = app.lesson.fit_scale;
    fit.bar_top = room.height - LessonBarHeight(app);
    fit.caption_scale = CaptionScale(app.lesson, room.width);
    fit.caption_lines = CaptionLinesAt(app.lesson, room.width, kMinCaptionScale);
    for (const std::string& name : app.lesson.lesson.steps[app.lesson.step].highlight) {
        HighlightFit highlight;
        highlight.name = name;
        const float share = HighlightVisibleShare(app.recorder, name, room.width, fit.bar_top);
        highlight.drawn = share >= 0.0f;
        highlight.visible = std::max(share, 0.0f);
        fit.highlights.push_back(highlight);
    }
    app.view.font_scale = font_scale;
    app.recorder.enabled = recording;
    app.recorder.rects.clear();
    app.recorder.layout.clear();
    return fit;
}

std::string StepFitProblem(const StepFit& fit) {
    std::ostringstream out;
    for (const HighlightFit& highlight : fit.highlights) {
        if (highlight.drawn && highlight.visible >= kMinVisibleShare) continue;
        if (out.tellp() > 0) out << "; ";
        if (!highlight.drawn)
            out << highlight.name << " is not drawn";
        else
            out << highlight.name << " is "
                << static_cast<int>(std::floor(highlight.visible * 100.0f)) << "% in view";
    }
    return out.str();
}

namespace {

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// The code point that starts at text[i] (UTF-8, already validated by the lesson reader), and its
// length in bytes.
char32_t CodePointAt(const std::string& text, std::size_t i, std::size_t* length) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80 || i + 1 >= text.size()) {
        *length = 1;
        return lead;
    }
    if ((lead >> 5) == 0x6) {
        *length = 2;
        return ((lead & 0x1Fu) << 6) | (byte(i + 1) & 0x3Fu);
    }
    if ((lead >> 4) == 0xE && i + 2 < text.size()) {
        *length = 3;
        return ((lead & 0x0Fu) << 12) | ((byte(i + 1) & 0x3Fu) << 6) | (byte(i + 2) & 0x3Fu);
    }
    if (i + 3 < text.size()) {
        *length = 4;
        return ((lead & 0x07u) << 18) | ((byte(i + 1) & 0x3Fu) << 12) |
               ((byte(i + 2) & 0x3Fu) << 6) | (byte(i + 3) & 0x3Fu);
    }
    *length = 1;
    return lead;
}

// Whether a number touching this code point is part of a formula or a word, not a quoted value.
bool JoinsFormula(char32_t c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
    if (c >= 0x370 && c <= 0x3FF) return true; // Greek: 2π, ω
    switch (c) {
    case '^':
    case '_':
    case '/':
    case '-':
    case 0xB7 /* · */:
    case 0xD7 /* × */:
    case 0x2212 /* − */:
    case 0x2192 /* → */:
    case '(':
    case ')':
        return true;
    default:
        return false;
    }
}

// The code point just before byte i (0 when i is 0).
char32_t CodePointBefore(const std::string& text, std::size_t i) {
    if (i == 0) return 0;
    std::size_t start = i - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
        --start;
    std::size_t length = 0;
    return CodePointAt(text, start, &length);
}

void CollectNumbers(const nlohmann::json& doc, std::vector<double>* out) {
    if (doc.is_number()) {
        out->push_back(doc.get<double>());
    } else if (doc.is_string()) {
        for (const QuotedNumber& number : QuotedNumbers(doc.get<std::string>()))
            out->push_back(number.value);
        // A sentence's numbers may sit in a formula too ("ω·k = 5 rad"): every run of digits.
        const std::string& text = doc.get_ref<const std::string&>();
        for (std::size_t i = 0; i < text.size();) {
            if (!IsDigit(text[i])) {
                ++i;
                continue;
            }
            std::size_t end = i;
            while (end < text.size() && (IsDigit(text[end]) || text[end] == '.'))
                ++end;
            out->push_back(std::strtod(text.substr(i, end - i).c_str(), nullptr));
            i = end;
        }
    } else if (doc.is_structured()) {
        for (const auto& item : doc)
            CollectNumbers(item, out);
    }
}

} // namespace

std::vector<QuotedNumber> QuotedNumbers(const std::string& caption) {
    std::vector<QuotedNumber> numbers;
    std::size_t i = 0;
    while (i < caption.size()) {
        if (!IsDigit(caption[i]) || (i > 0 && (IsDigit(caption[i - 1]) || caption[i - 1] == '.'))) {
            ++i;
            continue;
        }
        // A minus sign just before: part of the number when nothing joins it to a formula.
        std::size_t start = i;
        bool negative = false;
        if (i > 0 && caption[i - 1] == '-') {
            negative = true, start = i - 1;
        } else if (i >= 3 && caption.compare(i - 3, 3, "\xE2\x88\x92") == 0) {
            negative = true, start = i - 3;
        }
        std::string digits;
        std::size_t end = i;
        while (end < caption.size() && IsDigit(caption[end]))
            digits += caption[end++];
        // Groups of three after a space: "10 000", "60 600".
        while (end + 3 < caption.size() && caption[end] == ' ' && IsDigit(caption[end + 1]) &&
               IsDigit(caption[end + 2]) && IsDigit(caption[end + 3]) &&
               (end + 4 >= caption.size() || !IsDigit(caption[end + 4]))) {
            digits += caption.substr(end + 1, 3);
            end += 4;
        }
        int decimals = 0;
        if (end + 1 < caption.size() && caption[end] == '.' && IsDigit(caption[end + 1])) {
            digits += '.';
            ++end;
            while (end < caption.size() && IsDigit(caption[end])) {
                digits += caption[end++];
                ++decimals;
            }
        }
        const char32_t before =
            negative ? CodePointBefore(caption, start) : CodePointBefore(caption, i);
        std::size_t after_length = 0;
        const char32_t after = end < caption.size() ? CodePointAt(caption, end, &after_length) : 0;
        // A sign of its own ("−2i/d" was caught above): only before a number that stands alone.
        const bool formula = JoinsFormula(after) || (!negative && JoinsFormula(before)) ||
                             (negative && before != 0 && before != ' ' && before != '(');
        if (!formula) {
            QuotedNumber number;
            number.text = caption.substr(start, end - start);
            number.value = std::strtod(digits.c_str(), nullptr) * (negative ? -1.0 : 1.0);
            // Trailing zeros of a whole number are a rounding ("620", "60 600"), not digits.
            int zeros = 0;
            if (decimals == 0)
                for (std::size_t k = digits.size(); k > 1 && digits[k - 1] == '0'; --k)
                    ++zeros;
            number.tolerance = 0.5 * std::pow(10.0, decimals > 0 ? -decimals : zeros);
            numbers.push_back(number);
        }
        i = end;
    }
    return numbers;
}

bool HoldsNumber(const nlohmann::json& doc, const QuotedNumber& number) {
    std::vector<double> values;
    CollectNumbers(doc, &values);
    // A relative margin of 1e-9 for the decimal writing of the bounds (0.695 is not exact).
    const double reach = number.tolerance * (1.0 + 1e-9);
    return std::any_of(values.begin(), values.end(), [&](double value) {
        return std::abs(value - number.value) <= reach ||
               std::abs(-value - number.value) <= reach; // "drops by 0.3" of a −0.3 change
    });
}

std::vector<std::string> LessonModelProblems(App& app, const Lesson& lesson) {
    if (lesson.needs_model.empty()) return {};
    // "a GPT-2", "a Llama, Qwen2 or SmolLM3"
    std::string names;
    bool gpt2 = false;
    for (std::size_t k = 0; k < lesson.needs_model.size(); ++k) {
        const ModelFamily* family = family_by_id(lesson.needs_model[k]);
        names += (k == 0                               ? ""
                  : k + 1 == lesson.needs_model.size() ? " or "
                                                       : ", ") +
                 std::string(family ? family->display : lesson.needs_model[k].c_str());
        gpt2 = gpt2 || lesson.needs_model[k] == "gpt2";
    }
    const std::string needs =
        "the lesson runs on a " + names +
        " checkpoint (needs_model): give one with --model FOLDER, a folder holding " +
        (gpt2 ? "model.safetensors, config.json, vocab.json and merges.txt"
              : "model.safetensors, config.json and tokenizer.json");
    const OpenedModel* opened = app.state.opened_model.get();
    if (opened == nullptr) return {needs};
    const std::string& id = opened->report.found.family_id;
    if (std::find(lesson.needs_model.begin(), lesson.needs_model.end(), id) ==
        lesson.needs_model.end())
        return {needs + " (the model given is " +
                (opened->report.found.family.empty() ? std::string("of no family PE Lab knows")
                                                     : opened->report.found.family + "'s") +
                ")"};
    std::vector<std::string> problems;
    StartLesson(app, lesson);
    for (int k = 0; k < app.lesson.StepCount(); ++k) {
        GoToStep(app, k);
        const PanelEntry* shown = app.panels.Find(app.view.presented_panel);
        if (shown == nullptr) continue;
        if (const std::string problem = shown->panel->StepProblem(app.state); !problem.empty())
            problems.push_back("step " + std::to_string(k + 1) + ": " + problem);
    }
    return problems;
}

std::vector<std::string> LessonWarnings(App& app, const Lesson& lesson) {
    std::vector<std::string> warnings;
    StartLesson(app, lesson);
    for (int k = 0; k < app.lesson.StepCount(); ++k) {
        const std::string step = "step " + std::to_string(k + 1) + ": ";
        const StepFit fit = MeasureStepFit(app, k, kProjectorRoom);
        // A name the panel declares but does not draw at this step's settings (a numbered one
        // past the end: clocks.summary_pair_999 at d_model 128) outlines nothing.
        StepFit drawn = fit;
        drawn.highlights.clear();
        for (const HighlightFit& highlight : fit.highlights) {
            if (highlight.drawn)
                drawn.highlights.push_back(highlight);
            else
                // The guess about a number only for a numbered name (ending in digits).
                warnings.push_back(step + highlight.name +
                                   " is not drawn at this step's settings, so it outlines nothing" +
                                   (std::isdigit(static_cast<unsigned char>(highlight.name.back()))
                                        ? " (a number past the end of what the panel shows?)"
                                        : " (it is drawn only in another mode or size of the "
                                          "panel)"));
        }
        if (const std::string problem = StepFitProblem(drawn); !problem.empty()) {
            std::ostringstream scale;
            scale << fit.scale;
            warnings.push_back(step + "at " + kProjectorRoom.name + ", " + problem + " (drawn at " +
                               scale.str() +
                               " of the text size, the smallest a slide uses): highlight less, "
                               "or fewer things of that panel");
        }
        // The numbers on screen: what the outlined widgets show of their panels' readouts
        // (WidgetName::shows), and the scene fields of their panels (the sliders' values; not
        // a field of another panel that happens to hold the number).
        const nlohmann::json scene = app.scene.Document();
        nlohmann::json shown = nlohmann::json::object();
        std::string outlined;
        for (const std::string& name : lesson.steps[k].highlight) {
            outlined += (outlined.empty() ? "" : ", ") + name;
            for (const PanelEntry& entry : app.panels.Entries()) {
                if (!WidgetBelongsTo(name, entry.id)) continue;
                for (const char* field : FindPanelInfo(entry.id)->scene_fields)
                    if (scene.contains(field)) shown["scene"][field] = scene[field];
                const nlohmann::json readouts = entry.panel->Readouts(app.state);
                for (const WidgetName& widget : FindPanelInfo(entry.id)->widgets()) {
                    if (!WidgetNameMatches(widget.name, name)) continue;
                    for (const std::string& key : widget.shows)
                        if (readouts.contains(key))
                            shown["readouts"][entry.id][key] = readouts[key];
                }
            }
        }
        for (const QuotedNumber& number : QuotedNumbers(lesson.steps[k].caption))
            if (!HoldsNumber(shown, number))
                warnings.push_back(step + "the caption quotes " + number.text +
                                   ", a number none of the outlined widgets shows (" +
                                   (outlined.empty() ? std::string("none outlined") : outlined) +
                                   ") and none of their panels' settings: is it the number on "
                                   "the slide?");
    }
    return warnings;
}

} // namespace pelab
