// Your model › Check (model_check.h): another engine's RoPE tables against the open model's.
#include "panels/model/model_check.h"

#include "panels/model/model_views.h"
#include "panels/scene_controls.h"
#include "pelab/models/rope_tables.h"
#include "widgets/frame.h"
#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace pelab {

namespace {

std::string LowerName(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name;
}

std::string FileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

} // namespace

std::string RopeDumpRole(const std::string& path, std::string* role) {
    RopeDump dump;
    // '<u2' is bfloat16 bits here: the only reason a RoPE table is stored as 16-bit integers.
    if (Status problem = open_rope_dump(path, false, &dump); !problem.ok()) {
        if (problem.message().find("--dtype bf16") == std::string::npos ||
            !open_rope_dump(path, true, &dump).ok())
            return problem.message();
    }
    const std::string name = LowerName(path);
    if (dump.one_dimensional && dump.width > 1)
        *role = "inv_freq";
    else if (name.find("sin") != std::string::npos)
        *role = "sin";
    else if (name.find("cos") != std::string::npos)
        *role = "cos";
    else if (name.find("angle") != std::string::npos || name.find("freq") != std::string::npos)
        *role = "angles";
    else
        return "\"" + FileName(path) +
               "\": its name does not say which table it is; name it cos…, sin… or angles… "
               "(inv_freq: one row)";
    return {};
}

RopeCheckOutcome ComputeRopeCheck(const RopeCheckInputs& inputs) {
    RopeCheckOutcome outcome;
    const RopeDumpFiles& files = inputs.files;
    if (!inputs.model || !inputs.model->has_config) {
        outcome.waiting =
            "Open the model's config.json (or its folder) to check tables against it.";
        return outcome;
    }
    RopeCheckRequest request;
    request.first_position = inputs.first_position;
    if (Status problem = rope_table_spec(inputs.model->config, inputs.layer, &request.spec);
        !problem.ok()) {
        outcome.error = problem.message();
        return outcome;
    }
    outcome.layer_summary = rope_spec_summary(request.spec);
    std::string first = files.cos, second = files.sin;
    request.kind = RopeDumpKind::CosSin;
    if (!files.inv_freq.empty()) {
        request.kind = RopeDumpKind::InvFreq;
        first = files.inv_freq;
    } else if (!files.angles.empty()) {
        request.kind = RopeDumpKind::Angles;
        first = files.angles;
    } else if (files.cos.empty() || files.sin.empty()) {
        outcome.waiting = files.cos.empty() ? "\"" + FileName(files.sin) +
                                                  "\" read: drop the cos table too (the angle "
                                                  "needs both)."
                                            : "\"" + FileName(files.cos) +
                                                  "\" read: drop the sin table too (the angle "
                                                  "needs both).";
        return outcome;
    }
    const auto open = [&](const std::string& path, RopeDump* dump) {
        Status problem = open_rope_dump(path, false, dump);
        if (!problem.ok() && problem.message().find("--dtype bf16") != std::string::npos)
            problem = open_rope_dump(path, true, dump);
        return problem;
    };
    Status problem = open(first, &request.first);
    if (problem.ok() && request.kind == RopeDumpKind::CosSin)
        problem = open(second, &request.second);
    outcome.kind = request.kind;
    if (problem.ok()) problem = rope_check(request, &outcome.result);
    if (problem.ok())
        problem = rope_check_picture(request, outcome.result, kCheckPictureRows, &outcome.picture);
    if (!problem.ok()) {
        outcome.error = problem.message();
        return outcome;
    }
    outcome.ran = true;
    return outcome;
}

// ---- The panel's side ----

bool ModelPanel::TakesDataFile(const std::string& path, const AppState& state) const {
    Sync(state.models);
    const std::string name = LowerName(path);
    return !preview && report->has_config && report->found.kind == PositionKind::Rope &&
           name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0;
}

std::string ModelPanel::OpenDataFile(const std::string& path, const AppState& state) {
    std::string role;
    if (std::string error = RopeDumpRole(path, &role); !error.empty()) return error;
    Sync(state.models);
    // A new kind of dump starts a new check; cos and sin complete each other.
    const int given = check_files.given + 1;
    if (role == "inv_freq" || role == "angles") check_files = {};
    check_files.given = given;
    if (role == "cos" || role == "sin") check_files.inv_freq.clear(), check_files.angles.clear();
    (role == "cos"        ? check_files.cos
     : role == "sin"      ? check_files.sin
     : role == "inv_freq" ? check_files.inv_freq
                          : check_files.angles) = path;
    check_pair = -1;
    view = "check";
    return {};
}

RopeCheckInputs ModelPanel::CheckInputs(const AppState& state) const {
    Sync(state.models);
    RopeCheckInputs inputs;
    inputs.files = check_files;
    inputs.model_version = synced_version;
    inputs.layer = LayerShown();
    inputs.first_position = check_first;
    inputs.model = service_report;
    return inputs;
}

const RopeCheckOutcome* ModelPanel::CheckOutcomeNow(const AppState& state) const {
    if (!check_files.Any()) return nullptr;
    return &check_cache.GetNow(CheckInputs(state), ComputeRopeCheck);
}

namespace {

// The pair whose curves show the difference best: the one that differs most over the curve's
// rows among those slow enough to read there (a wavelength of 12 positions or more), else the
// one that differs most.
int CurvePair(const RopeCheckPicture& picture) {
    const std::size_t pairs = static_cast<std::size_t>(picture.pairs);
    int best = 0, best_readable = -1;
    double most = -1, most_readable = -1;
    for (std::size_t i = 0; i < pairs; ++i) {
        double error = 0;
        for (std::size_t r = 0; r * pairs + i < picture.curve_dump.size(); ++r)
            error = std::max(error, std::fabs(picture.curve_dump[r * pairs + i] -
                                              picture.curve_reference[r * pairs + i]));
        if (picture.curve_dump.empty()) error = picture.error.empty() ? 0 : picture.error[i];
        if (error > most) most = error, best = static_cast<int>(i);
        const double wavelength = i < picture.inv_freq.size() && picture.inv_freq[i] > 0
                                      ? 6.283185307 / picture.inv_freq[i]
                                      : 0;
        if (wavelength >= 12 && error > most_readable)
            most_readable = error, best_readable = static_cast<int>(i);
    }
    return best_readable >= 0 && most_readable > 0 ? best_readable : best;
}

// The difference over positions × pairs: each cell's colour is log₁₀ of its error between the
// tolerance (the palest) and the largest error (the darkest); a click picks the pair.
bool DrawDifferenceMap(FrameContext& frame, const RopeCheckOutcome& outcome, ImVec2 size,
                       int* pair) {
    const RopeCheckPicture& picture = outcome.picture;
    const int rows = static_cast<int>(picture.positions.size());
    const int pairs = picture.pairs;
    const float label_width = ImGui::CalcTextSize("pair 000").x + frame.Px(6);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##model_check_map", size);
    frame.Record("model.check_map");
    const bool clicked = ImGui::IsItemClicked();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float line = ImGui::GetFontSize();
    const float left = origin.x + label_width, top = origin.y + line * 1.3f;
    const float bottom = origin.y + size.y - line * 2.6f;
    const float cell_w = (size.x - label_width) / std::max(rows, 1);
    const float cell_h = (bottom - top) / std::max(pairs, 1);
    const double tolerance = std::max(outcome.result.tolerance, 1e-300);
    const double low = std::log10(tolerance);
    const double high = std::max(std::log10(std::max(picture.largest_error, tolerance)), low + 1);
    draw->AddText(ImVec2(left, origin.y), ImGui::GetColorU32(ImGuiCol_Text),
                  "|engine − reference|, log");
    for (int r = 0; r < rows; ++r)
        for (int i = 0; i < pairs; ++i) {
            const double error =
                picture.error[static_cast<std::size_t>(r) * static_cast<std::size_t>(pairs) +
                              static_cast<std::size_t>(i)];
            const double t = error <= tolerance ? 0 : (std::log10(error) - low) / (high - low);
            draw->AddRectFilled(
                ImVec2(left + r * cell_w, top + i * cell_h),
                ImVec2(left + (r + 1) * cell_w + 0.5f, top + (i + 1) * cell_h + 0.5f),
                plot::Sequential(std::clamp(t, 0.0, 1.0)));
        }
    // The pair drawn on the left: an outline in the text's colour on a halo of the background's,
    // visible on every colour of the map.
    if (*pair >= 0 && *pair < pairs) {
        const ImVec2 from(left, top + *pair * cell_h),
            to(left + rows * cell_w, top + (*pair + 1) * cell_h);
        draw->AddRect(from, to, ImGui::GetColorU32(ImGuiCol_WindowBg), 0, 0, frame.Px(4));
        draw->AddRect(from, to, ImGui::GetColorU32(ImGuiCol_Text), 0, 0, frame.Px(1.5f));
    }
    const int every = std::max(1, static_cast<int>(line * 1.2f / std::max(cell_h, 1.0f)));
    for (int i = 0; i < pairs; i += every) {
        char name[24];
        std::snprintf(name, sizeof name, "pair %d", i);
        draw->AddText(ImVec2(origin.x, top + i * cell_h + (cell_h - line) / 2),
                      ImGui::GetColorU32(ImGuiCol_Text), name);
    }
    char first[64], last[64], scale[96];
    std::snprintf(first, sizeof first, "position %lld", picture.positions.front());
    std::snprintf(last, sizeof last, "%lld", picture.positions.back());
    draw->AddText(ImVec2(left, bottom + frame.Px(2)), frame.Color(Role::Muted), first);
    draw->AddText(ImVec2(left + rows * cell_w - ImGui::CalcTextSize(last).x, bottom + frame.Px(2)),
                  frame.Color(Role::Muted), last);
    std::snprintf(scale, sizeof scale, "%s … %s", ShownNumber(tolerance, 2).c_str(),
                  ShownNumber(std::pow(10.0, high), 2).c_str());
    const float bar_top = bottom + line * 1.35f;
    const float text_width = ImGui::CalcTextSize(scale).x;
    const float bar_width =
        std::clamp(size.x - label_width - text_width - frame.Px(8), frame.Px(24), frame.Px(140));
    const float bar_left = left;
    for (int k = 0; k < 24; ++k)
        draw->AddRectFilled(ImVec2(bar_left + bar_width * k / 24, bar_top),
                            ImVec2(bar_left + bar_width * (k + 1) / 24, bar_top + line * 0.8f),
                            plot::Sequential(k / 23.0));
    // Kept inside the map's width however narrow the panel (the numbers are on hover too).
    draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    draw->AddText(ImVec2(bar_left + bar_width + frame.Px(6), bar_top - frame.Px(2)),
                  frame.Color(Role::Muted), scale);
    draw->PopClipRect();
    if (ImGui::IsItemHovered())
        Tooltip("Colour: log₁₀ of |engine − reference| for each pair (rows) and position "
                "(columns), from the tolerance %s (palest) to the largest difference %s.",
                ShownNumber(tolerance, 3).c_str(), ShownNumber(picture.largest_error, 3).c_str());
    if (clicked) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int picked = static_cast<int>((mouse.y - top) / std::max(cell_h, 1.0f));
        if (picked >= 0 && picked < pairs) *pair = picked;
    }
    return clicked;
}

} // namespace

void ModelPanel::DrawCheckFiles(FrameContext& frame) {
    std::string files;
    for (const auto& [what, path] :
         {std::pair<const char*, const std::string*>{"cos", &check_files.cos},
          {"sin", &check_files.sin},
          {"inv_freq", &check_files.inv_freq},
          {"angles", &check_files.angles}})
        if (!path->empty())
            files += std::string(files.empty() ? "" : " · ") + what + ": " + FileName(*path);
    MutedWrappedText(files.c_str());
    frame.Record("model.check_files");
    if (frame.show_controls) {
        SameLineIfFits(ImGui::CalcTextSize("clear").x + ImGui::GetStyle().FramePadding.x * 2);
        if (ImGui::SmallButton("clear##check")) {
            const int given = check_files.given; // the count goes on: a file given again is new
            check_files = {};
            check_files.given = given;
        }
        frame.Record("model.check_clear");
    }
}

void ModelPanel::DrawCheck(FrameContext& frame) {
    if (!check_files.Any()) {
        MutedWrappedText("Check your implementation: drop another engine's RoPE tables of this "
                         "layer on the window (.npy, as `pelab rope check` reads them): its cos "
                         "and sin together (their file names say which), or inv_freq (one row), "
                         "or the angles p·θ; bfloat16 as its '<u2' bits. PE Lab compares them "
                         "with the ideal and the transformers tables and names the bug.");
        frame.Record("model.check_hint");
        return;
    }
    DrawCheckFiles(frame);
    if (!check_files.Any()) return;
    bool current = true, computing = false;
    const RopeCheckOutcome& outcome =
        check_cache.GetForFrame(CheckInputs(frame.state), ComputeRopeCheck,
                                frame.compute_in_background, &current, &computing);
    if (computing) {
        frame.stats.computing = true;
        MutedWrappedText("checking …");
    }
    if (!outcome.waiting.empty() || !outcome.error.empty()) {
        if (!outcome.error.empty()) ImGui::PushStyleColor(ImGuiCol_Text, frame.Color(Role::Error));
        WrappedText(outcome.error.empty() ? outcome.waiting.c_str() : outcome.error.c_str());
        if (!outcome.error.empty()) ImGui::PopStyleColor();
        frame.Record("model.check_waiting");
        return;
    }
    const RopeCheckResult& result = outcome.result;
    // The verdict's first sentence (what differs, or that it agrees) in its colour; the rest
    // (where they part, by how much) muted under it, or on hover where pictures come first.
    std::string verdict = result.verdict;
    if (!verdict.empty()) verdict[0] = static_cast<char>(std::toupper(verdict[0]));
    const std::size_t end = verdict.find(". ");
    const std::string headline = end == std::string::npos ? verdict : verdict.substr(0, end + 1);
    std::string details = end == std::string::npos ? std::string() : verdict.substr(end + 2);
    for (const std::string& note : result.notes)
        details += (details.empty() ? "" : " ") + std::string("Note: ") + note + ".";
    ImGui::PushStyleColor(ImGuiCol_Text, frame.Color(result.agrees ? Role::Good : Role::Warning));
    WrappedText(headline.c_str());
    ImGui::PopStyleColor();
    frame.Record("model.check_verdict");
    if (!details.empty()) {
        // Where they part and by how much: what an engine developer acts on, at every size;
        // where pictures come first (a projector), its first line, whole on hover.
        if (frame.pictures_first) {
            std::string line = details;
            const float width = ImGui::GetContentRegionAvail().x;
            while (line.size() > 1 && ImGui::CalcTextSize((line + " …").c_str()).x > width) {
                line.pop_back();
                while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80)
                    line.pop_back(); // never half a UTF-8 character
            }
            if (line.size() < details.size()) line += " …";
            ImGui::TextColored(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], "%s", line.c_str());
            if (ImGui::IsItemHovered()) Tooltip("%s", details.c_str());
        } else {
            MutedWrappedText(details.c_str());
        }
        frame.Record("model.check_details");
    }
    DrawCheckPicture(frame, outcome);
}

void ModelPanel::DrawCheckPicture(FrameContext& frame, const RopeCheckOutcome& outcome) {
    const RopeCheckPicture& picture = outcome.picture;
    if (picture.pairs == 0 || picture.positions.empty()) return;
    const bool inv = outcome.kind == RopeDumpKind::InvFreq;
    if (check_pair < 0 || check_pair >= picture.pairs) check_pair = CurvePair(picture);
    if (frame.show_controls) {
        FlowRow row;
        if (!inv)
            SceneSlider(frame, row, kCheckPair, &check_pair, FitWidth(7.0f, "pair"),
                        picture.pairs - 1);
        SceneInput(frame, row, kCheckFirst, &check_first,
                   ImGui::GetFontSize() * 4 + ImGui::CalcTextSize("row 0 is position").x);
    }
    const float avail_w = ImGui::GetContentRegionAvail().x;
    // The curve's y title takes a line above its plot: both pictures leave it room.
    const float avail_h =
        std::max(ImGui::GetFontSize() * 7, ImGui::GetContentRegionAvail().y -
                                               ImGui::GetTextLineHeightWithSpacing() -
                                               ImGui::GetStyle().ItemSpacing.y);
    // Side by side when the panel is wide, else one above the other, each half the height left.
    const bool side = avail_w > ImGui::GetFontSize() * 40 || avail_h < ImGui::GetFontSize() * 21;
    const ImVec2 size =
        side ? ImVec2(avail_w / 2 - frame.Px(6), avail_h)
             : ImVec2(avail_w, std::max(ImGui::GetFontSize() * 10,
                                        avail_h / 2 - ImGui::GetStyle().ItemSpacing.y));
    // The engine's values and the reference's, for the pair (inv_freq: over the pairs).
    std::vector<double> xs, dump, reference;
    const bool angles = outcome.kind == RopeDumpKind::Angles;
    if (inv) {
        for (int i = 0; i < picture.pairs; ++i) {
            xs.push_back(i);
            dump.push_back(picture.dump[static_cast<std::size_t>(i)]);
            reference.push_back(picture.reference[static_cast<std::size_t>(i)]);
        }
    } else {
        for (std::size_t r = 0; r < picture.curve_positions.size(); ++r) {
            const std::size_t at =
                r * static_cast<std::size_t>(picture.pairs) + static_cast<std::size_t>(check_pair);
            xs.push_back(static_cast<double>(picture.curve_positions[r]));
            dump.push_back(picture.curve_dump[at]);
            reference.push_back(picture.curve_reference[at]);
        }
    }
    std::vector<double> both = dump;
    both.insert(both.end(), reference.begin(), reference.end());
    check_view.SetHome({xs.front() - 0.5, xs.back() + 0.5}, PaddedRange(both));
    if (homes_stale || !check_view.has_home) check_view.Reset();
    plot::PlotConfig config;
    config.x_label = inv ? "pair i" : "position";
    // The column drawn and the reference in the y title: the legend stays one short row.
    const int column = !inv && static_cast<std::size_t>(check_pair) < picture.curve_column.size()
                           ? picture.curve_column[static_cast<std::size_t>(check_pair)]
                           : check_pair;
    const char* reference_name =
        picture.reference_used == RopeReference::Ideal ? "ideal" : "transformers";
    char y_label[96];
    if (inv)
        std::snprintf(y_label, sizeof y_label, "inv_freq (reference: %s)", reference_name);
    else
        std::snprintf(y_label, sizeof y_label, "%s, pair %d (column %d; reference: %s)",
                      angles ? "angle" : "cos", check_pair, column, reference_name);
    // Where pictures come first (a projector, its height short), the legend and the x title
    // give their rows to the curve: the y title says which line is which.
    const bool tight = frame.pictures_first && size.y < ImGui::GetFontSize() * 10;
    if (tight) {
        if (inv)
            std::snprintf(y_label, sizeof y_label, "inv_freq: thick = reference");
        else
            std::snprintf(y_label, sizeof y_label, "%s %d: thick = reference",
                          angles ? "angle, pair" : "cos, pair", check_pair);
        config.flags |= plot::PlotFlags_NoLegend;
        config.x_label = nullptr;
    }
    config.y_label = y_label;
    if (inv) config.x_flags = plot::AxisFlags_Integer;
    plot::Plot p;
    if (p.Begin("##model_check_curve", check_view, size, config)) {
        frame.Record("model.check_curve");
        p.Line("reference", xs.data(), reference.data(), static_cast<int>(xs.size()),
               frame.Color(Role::Accent), frame.Px(3.0f));
        p.Line("engine", xs.data(), dump.data(), static_cast<int>(xs.size()),
               frame.Color(Role::PosA), frame.Px(1.5f));
        p.End();
    }
    if (side) ImGui::SameLine();
    if (DrawDifferenceMap(frame, outcome, size, &check_pair)) check_view.Reset();
}

} // namespace pelab
