#include "widgets/widgets.h"

#include "widgets/fonts.h"
#include "widgets/layout.h"

#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <sstream>
#include <string>

namespace pelab {

void HelpMarker(const char* text) {
    ImGui::TextDisabled("(?)");
    FormulaTooltip(text);
}

namespace {

void WrappedTooltip(const char* text) {
    ImGui::BeginTooltip();
    // Wrapped at spaces only, as WrappedText: ImGui's own wrap splits "2.828" after the point.
    const float font = ImGui::GetFontSize();
    const float padding = 2.0f * ImGui::GetStyle().WindowPadding.x;
    const float width =
        std::max(font * 4.0f,
                 std::min(font * 32.0f, ImGui::GetMainViewport()->Size.x - padding - 2.0f * font));
    for (const std::string& line : WrapAtSpaces(text, width, width, [](const std::string& part) {
             return ImGui::CalcTextSize(part.c_str()).x;
         }))
        ImGui::TextUnformatted(line.c_str());
    ImGui::EndTooltip();
}

} // namespace

void FormulaTooltip(const char* text) {
    if (ImGui::IsItemHovered()) WrappedTooltip(text);
}

void Tooltip(const char* format, ...) {
    char text[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    WrappedTooltip(text);
}

void ReadoutRow(const char* name, const char* formula, const char* value_format, ...) {
    char value[128];
    va_list args;
    va_start(args, value_format);
    std::vsnprintf(value, sizeof value, value_format, args);
    va_end(args);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(name);
    FormulaTooltip(formula);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(value);
    FormulaTooltip(formula);
}

std::vector<std::string> WrapAtSpaces(const std::string& text, float first_width, float width,
                                      const std::function<float(const std::string&)>& measure) {
    std::vector<std::string> lines;
    std::string line;
    float limit = first_width;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find_first_of(" \n", at), text.size());
        std::string word = text.substr(at, end - at);
        // A path wider than a whole line breaks after its slashes (a file's path in a tooltip),
        // each piece as long as fits; nothing else is ever split.
        while (measure(word) > width && word.find('/') != std::string::npos) {
            std::size_t cut = std::string::npos;
            for (std::size_t slash = word.find('/');
                 slash != std::string::npos && slash + 1 < word.size();
                 slash = word.find('/', slash + 1)) {
                if (measure(word.substr(0, slash + 1)) > (line.empty() ? limit : width)) break;
                cut = slash + 1;
            }
            if (cut == std::string::npos) {
                if (line.empty()) break; // not even the first piece fits: left whole
                lines.push_back(line);
                line.clear();
                limit = width;
                continue;
            }
            if (!line.empty()) {
                lines.push_back(line);
                line.clear();
            }
            lines.push_back(word.substr(0, cut));
            word.erase(0, cut);
            limit = width;
        }
        const std::string candidate = line.empty() ? word : line + " " + word;
        if (!line.empty() && measure(candidate) > limit) {
            lines.push_back(line);
            line = word;
            limit = width;
        } else {
            line = candidate;
        }
        if (end < text.size() && text[end] == '\n') {
            lines.push_back(line);
            line.clear();
            limit = width;
        }
        at = end + 1;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

std::string ElideMiddle(const std::string& text, float width,
                        const std::function<float(const std::string&)>& measure) {
    if (measure(text) <= width) return text;
    const auto boundary = [&](std::size_t at) {
        return at == 0 || at >= text.size() ||
               (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;
    };
    // Keep `head` bytes of the start and `tail` of the end, the start one character longer
    // when they differ, the longest that fit.
    std::size_t head = text.size() / 2, tail = text.size() - head;
    while (head + tail > 0) {
        std::size_t h = head, t = tail;
        while (!boundary(h))
            --h;
        while (!boundary(text.size() - t))
            --t;
        std::string shown = text.substr(0, h) + "…" + text.substr(text.size() - t);
        if (measure(shown) <= width) return shown;
        if (tail >= head && tail > 0)
            --tail;
        else
            --head;
    }
    return "…";
}

void WrappedText(const char* text) {
    const float first = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
    // Later lines start where ImGui starts a new line (the indent of the window or group), so
    // they also get what the first line lost to a SameLine.
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float line_start = window->Pos.x + window->DC.Indent.x + window->DC.ColumnsOffset.x;
    const float full = first + std::max(0.0f, ImGui::GetCursorScreenPos().x - line_start);
    const auto lines = WrapAtSpaces(
        text, first, full, [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; });
    ImRect block(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
    for (const std::string& line : lines) {
        ImGui::TextUnformatted(line.c_str());
        block.Add(ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()));
    }
    // The whole block is the last item, so a recorded name (an outline, a test's click) covers
    // every line, not the last one.
    if (!lines.empty()) ImGui::GetCurrentContext()->LastItemData.Rect = block;
}

void ErrorText(const FrameContext& frame, const char* message) {
    ImGui::PushStyleColor(ImGuiCol_Text, frame.Color(Role::Error));
    WrappedText(message);
    ImGui::PopStyleColor();
}

float FrameContext::Px(float pixels) const {
    return pixels * ImGui::GetFontSize() / kBaseFontPixels * theme.line_scale;
}

void TableHeadersWithTooltips(FrameContext& frame, const char* const* tooltips,
                              const char* record_prefix) {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const int columns = ImGui::TableGetColumnCount();
    for (int column = 0; column < columns; ++column) {
        if (!ImGui::TableSetColumnIndex(column)) continue;
        const char* name = ImGui::TableGetColumnName(column);
        ImGui::PushID(column);
        ImGui::TableHeader(name);
        ImGui::PopID();
        if (tooltips[column] != nullptr) FormulaTooltip(tooltips[column]);
        if (frame.recorder.enabled) {
            // The width the text needs, against the cell's edge: a header cut to "Δ = |P…" is
            // a layout failure.
            const std::string record =
                std::string(record_prefix) + ".header" + std::to_string(column);
            frame.Record(record.c_str());
            WidgetRecorder::Placement& placement = frame.recorder.layout[record];
            placement.item.x1 = placement.item.x0 + ImGui::CalcTextSize(name, nullptr, true).x;
        }
    }
}

float ReadoutBlockWidth(const char* name, const char* value) {
    return std::max(ImGui::CalcTextSize(name).x, ImGui::CalcTextSize(value).x);
}

void ReadoutBlock(FrameContext& frame, const char* name, const char* value, const char* formula,
                  const char* record_name) {
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s", name);
    FormulaTooltip(formula);
    ImGui::TextUnformatted(value);
    FormulaTooltip(formula);
    ImGui::EndGroup();
    frame.Record(record_name);
}

void MutedWrappedText(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    WrappedText(text);
    ImGui::PopStyleColor();
}

void PlayControls(FrameContext& frame, FlowRow& row, const char* panel_id) {
    AppState& state = frame.state;
    const std::string id(panel_id);
    // As wide as "Pause", so that the row does not move when the label changes.
    const float button = std::max(ButtonWidth("Pause"), ButtonWidth("Play"));
    row.Item(button);
    if (ImGui::Button(state.playing ? "Pause###play" : "Play###play", ImVec2(button, 0)))
        state.playing = !state.playing;
    frame.Record((id + ".play").c_str());
    const double min_speed = 0.1, max_speed = 1000.0;
    const float slider = FitWidth(8.0f, "positions/s");
    row.Item(LabelledWidth(slider, "positions/s"));
    ImGui::SetNextItemWidth(slider);
    ImGui::SliderScalar("positions/s", ImGuiDataType_Double, &state.play_speed, &min_speed,
                        &max_speed, "%.1f",
                        ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    FormulaTooltip("While playing, pos A grows by this many positions per second (Space plays "
                   "and pauses from anywhere).");
    frame.Record((id + ".speed").c_str());
    const std::string smooth = id + ".smooth";
    if (!frame.ShowsAdvanced(smooth.c_str())) return;
    row.Item(CheckboxWidth("smooth"));
    ImGui::Checkbox("smooth", &state.play_smooth);
    FormulaTooltip("Unticked, Play steps pos A a whole position at a time; ticked, it glides "
                   "through the fractions between them.");
    frame.Record(smooth.c_str());
}

bool BeginControls(FrameContext& frame) {
    frame.controls_in_strip = false;
    if (!frame.show_controls || (frame.slides && !frame.slide_controls)) return false;
    frame.recorder.in_controls = true;
    const float font = ImGui::GetFontSize();
    const float available = ImGui::GetContentRegionAvail().y;
    // Presented: under 30 em (the pictures are the point). Tiled: only when the tile is so
    // short (under 16 em: four panels at 1024×768, text scale 2) that the controls would fill it.
    if (available >= font * (frame.presented ? kShortWindowEms : kShortTileEms)) return true;
    // A second set of controls inside the body a strip opened (the order panel's toy demo under
    // a checkpoint that cannot run) is drawn in the body: a strip there would open a second
    // body that EndPanelBody never closes.
    if (frame.body_in_child) return true;
    frame.controls_in_strip = true;
    // The strip is as tall as its content was last frame (ImGui's per-window storage), capped.
    const float content =
        ImGui::GetStateStorage()->GetFloat(ImGui::GetID("##controls_height"), available);
    // Whole rows of controls, so the strip never ends in half a slider.
    const float row = ImGui::GetFrameHeightWithSpacing();
    const float rows = std::max(2.0f, std::floor(std::max(font * 3.5f, available * 0.2f) / row));
    const float cap = rows * row - ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginChild("##controls", ImVec2(0, std::min(content, cap)), false);
    return true;
}

void KeepOutlinedInView(const WidgetRecorder& recorder, const std::vector<std::string>& names,
                        const std::string& panel_id, float row) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    // Only what this window scrolls: widgets drawn in it or in a child of it.
    const auto inside = [window](unsigned window_id) {
        for (const ImGuiWindow* w = ImGui::FindWindowByID(window_id); w != nullptr;
             w = w->ParentWindow)
            if (w == window) return true;
        return false;
    };
    float top = 0, bottom = 0;
    bool any = false;
    for (const std::string& name : names) {
        if (!WidgetBelongsTo(name, panel_id)) continue;
        const auto placed = recorder.layout.find(name);
        if (placed == recorder.layout.end() || !inside(placed->second.window_id)) continue;
        top = any ? std::min(top, placed->second.item.y0) : placed->second.item.y0;
        bottom = any ? std::max(bottom, placed->second.item.y1) : placed->second.item.y1;
        any = true;
    }
    if (!any) return;
    // With room for the outline drawn around them (its pad and its line), so that the outline
    // is whole too, not only the widgets.
    const float margin = ImGui::GetFontSize() * kOutlineMarginEms;
    top -= margin, bottom += margin;
    const float view_top = window->InnerRect.Min.y, view_bottom = window->InnerRect.Max.y;
    float scroll = window->Scroll.y;
    if (bottom - top > view_bottom - view_top || top < view_top)
        scroll += top - view_top;
    else if (bottom > view_bottom)
        scroll += bottom - view_bottom;
    if (row > 0) {
        // A whole row at the top: the widgets' first row, or the first that keeps their last
        // in the strip. In the strip's content coordinates (0: its first row's top).
        const float height = view_bottom - view_top;
        const float first = top + margin - view_top + window->Scroll.y;
        const float last = bottom - margin - view_top + window->Scroll.y;
        scroll = std::floor(first / row + 1e-3f) * row;
        if (last > scroll + height + 1.0f) scroll = std::ceil((last - height) / row - 1e-3f) * row;
        scroll = std::clamp(scroll, 0.0f, window->ScrollMax.y);
    }
    if (std::fabs(scroll - window->Scroll.y) >= 1.0f) ImGui::SetScrollY(scroll);
}

void KeepOutlinedInView(const FrameContext& frame) {
    if (frame.outlined != nullptr && frame.recorder.focus_frames > 0 && frame.recorder.enabled)
        KeepOutlinedInView(frame.recorder, *frame.outlined, frame.panel_id);
}

void EndControls(FrameContext& frame) {
    // The controls may have moved the shared parameters (a d_model that leaves the pair out of
    // range): what is drawn below them sees the invariants kept, in every panel.
    frame.state.Clamp();
    frame.recorder.in_controls = false;
    if (!frame.controls_in_strip) return;
    if (frame.outlined != nullptr && frame.recorder.focus_frames > 0 && frame.recorder.enabled)
        KeepOutlinedInView(frame.recorder, *frame.outlined, frame.panel_id,
                           ImGui::GetFrameHeightWithSpacing());
    const float content = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
    ImGui::EndChild();
    ImGui::GetStateStorage()->SetFloat(ImGui::GetID("##controls_height"), content);
    frame.controls_in_strip = false;
    // The body takes the rest of the window: if it does not fit, it alone scrolls (beside the
    // strip, not around it), and the controls stay in view above it.
    ImGui::BeginChild("##body", ImVec2(0, 0), false);
    frame.body_in_child = true;
}

void EndPanelBody(FrameContext& frame) {
    if (!frame.body_in_child) return;
    KeepOutlinedInView(frame);
    ImGui::EndChild();
    frame.body_in_child = false;
}

std::vector<CaptionPiece> CaptionPieces(const std::string& caption) {
    // Word by word: a word (or run of words) between stars is emphasised; punctuation after
    // the closing star is not ("*off*," ends the emphasis before the comma).
    std::vector<CaptionPiece> pieces;
    std::istringstream words(caption);
    std::string word;
    bool emphasised = false;
    while (words >> word) {
        if (word.front() == '*') emphasised = true, word.erase(0, 1);
        std::string after;
        const std::size_t star = word.rfind('*');
        const bool closes =
            emphasised && star != std::string::npos &&
            std::all_of(word.begin() + static_cast<std::ptrdiff_t>(star) + 1, word.end(),
                        [](char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; });
        if (closes) {
            after = word.substr(star + 1);
            word.erase(star);
        }
        if (!word.empty()) pieces.push_back({word, emphasised, false});
        if (closes) emphasised = false;
        if (!after.empty()) pieces.push_back({after, false, !word.empty()});
    }
    return pieces;
}

void DrawCaption(const std::string& caption, ImU32 emphasis) {
    const float space = ImGui::CalcTextSize(" ").x;
    bool first = true;
    for (const CaptionPiece& piece : CaptionPieces(caption)) {
        if (piece.joined)
            ImGui::SameLine(0, 0);
        else if (!first)
            SameLineIfFits(ImGui::CalcTextSize(piece.text.c_str()).x, space);
        first = false;
        if (piece.emphasised)
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(emphasis), "%s", piece.text.c_str());
        else
            ImGui::TextUnformatted(piece.text.c_str());
    }
}

nlohmann::json WidgetRectsJson(const std::map<std::string, WidgetRect>& rects) {
    // Divided by a whole number of steps, in double: 12.3 is written "12.3".
    const auto rounded = [](float value, double steps) {
        return std::isfinite(value)
                   ? nlohmann::json(std::round(static_cast<double>(value) * steps) / steps)
                   : nlohmann::json(nullptr);
    };
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, rect] : rects)
        out[name] = {rounded(rect.x0, 10), rounded(rect.y0, 10), rounded(rect.x1, 10),
                     rounded(rect.y1, 10), rounded(rect.visible, 1000)};
    return out;
}

void WidgetRecorder::RecordLastItem(const char* name) {
    if (!enabled) return;
    if (!scroll_to.empty() && scroll_to == name) {
        ImGui::ScrollToItem(ImGuiScrollFlags_KeepVisibleEdgeY);
        scroll_to.clear();
    }
    if (seen_names.count(name) == 0) seen_names.insert(name);
    if (in_controls && control_names.count(name) == 0) control_names.insert(name);
    const ImVec2 item_min = ImGui::GetItemRectMin(), item_max = ImGui::GetItemRectMax();
    layout[name] = {{item_min.x, item_min.y, item_max.x, item_max.y},
                    ImGui::GetCurrentWindowRead()->WorkRect.Max.x,
                    ImGui::GetCurrentWindowRead()->ID};
    // Only the visible part: a test must not click where a person could not.
    // The window's clip rectangle (a table cell's inside a table), not the draw list's: a plot
    // clips its drawing to its data area, but its frame around it is on screen too.
    const ImRect& clip = ImGui::GetCurrentWindowRead()->ClipRect;
    const ImVec2 clip_min = clip.Min, clip_max = clip.Max;
    WidgetRect visible{std::max(item_min.x, clip_min.x), std::max(item_min.y, clip_min.y),
                       std::min(item_max.x, clip_max.x), std::min(item_max.y, clip_max.y)};
    visible.visible = VisibleFraction(layout[name].item, visible);
    if (visible.x1 - visible.x0 < 2.0f || visible.y1 - visible.y0 < 2.0f) {
        rects.erase(name);
        return;
    }
    rects[name] = visible;
    // Outlines stay in the panel's window across, and in the scrolling part they belong to
    // down (a body outline never covers the control strip above it).
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    const ImRect root = window->RootWindow->InnerClipRect, own = window->InnerClipRect;
    clips[name] = {root.Min.x, std::max(root.Min.y, own.Min.y), root.Max.x,
                   std::min(root.Max.y, own.Max.y)};
}

namespace {

// Drops what is past the limit from ImGui's own buffer (the edit callback sees it before the
// string does), back to the start of the character the limit falls in.
int KeepWithinLimit(ImGuiInputTextCallbackData* data) {
    const auto limit = static_cast<int>(*static_cast<const std::size_t*>(data->UserData));
    if (data->BufTextLen <= limit) return 0;
    int cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(data->Buf[cut]) & 0xC0) == 0x80)
        --cut; // a continuation byte: the character started before it
    data->DeleteChars(cut, data->BufTextLen - cut);
    return 0;
}

} // namespace

bool LimitedInputText(const char* label, std::string* text, std::size_t max_bytes,
                      ImGuiInputTextFlags flags) {
    return ImGui::InputText(label, text, flags | ImGuiInputTextFlags_CallbackEdit, KeepWithinLimit,
                            &max_bytes);
}

bool LimitedInputTextMultiline(const char* label, std::string* text, std::size_t max_bytes,
                               const ImVec2& size, ImGuiInputTextFlags flags) {
    return ImGui::InputTextMultiline(label, text, size, flags | ImGuiInputTextFlags_CallbackEdit,
                                     KeepWithinLimit, &max_bytes);
}

} // namespace pelab
