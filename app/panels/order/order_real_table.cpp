// The Real model view's table (order_real.h): each switch's loss per sentence and the next-word
// guesses after each sentence, both sentences side by side where they fit; and the line that
// follows the passes while they run.
#include "panels/order/panel_order.h"

#include "widgets/layout.h"
#include "widgets/number_text.h"
#include "widgets/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace pelab {

void OrderPanel::DrawGuesses(FrameContext& frame, const RealOrderDemo& demo) {
    const OrderResult& r = demo.result;
    // Each guess as '"text" 12%': kept whole when a narrow table wraps the guesses.
    const auto guesses = [](const std::vector<NextGuess>& top,
                            const std::vector<std::string>& texts) {
        std::vector<std::string> each;
        for (std::size_t k = 0; k < top.size() && k < texts.size(); ++k)
            each.push_back("\"" + ShownToken(texts[k]) + "\" " +
                           ShownNumber(100 * top[k].probability, 2) + "%");
        return each;
    };
    const auto joined = [](const std::vector<std::string>& each) {
        std::string line;
        for (const std::string& guess : each)
            line += (line.empty() ? "" : "  ") + guess;
        return line;
    };
    std::vector<std::vector<std::string>> each_a, each_b;
    std::vector<std::string> lines_a, lines_b;
    float widest_a = 0, widest_b = 0, widest_label = ImGui::CalcTextSize("positions").x;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        each_a.push_back(guesses(r.runs[k].top_a, demo.top_text_a[k]));
        each_b.push_back(guesses(r.runs[k].top_b, demo.top_text_b[k]));
        lines_a.push_back(joined(each_a.back()));
        lines_b.push_back(joined(each_b.back()));
        widest_a = std::max(widest_a, ImGui::CalcTextSize(lines_a.back().c_str()).x);
        widest_b = std::max(widest_b, ImGui::CalcTextSize(lines_b.back().c_str()).x);
        widest_label = std::max(widest_label, ImGui::CalcTextSize(demo.labels[k].c_str()).x);
    }
    // What "\xNN" is, said in the guesses' header too when any guess has one (the note under
    // a tall table is out of view on a projector).
    std::vector<std::vector<std::string>> every_guess = demo.top_text_a;
    every_guess.insert(every_guess.end(), demo.top_text_b.begin(), demo.top_text_b.end());
    const char* top = ByteGuessNote(every_guess).empty() ? " (top 5)" : " (top 5; \\xNN: a byte)";
    const std::string after_a = std::string("next after A") + top,
                      after_b = std::string("next after B") + top;
    widest_a = std::max(widest_a, ImGui::CalcTextSize(after_a.c_str()).x);
    widest_b = std::max(widest_b, ImGui::CalcTextSize(after_b.c_str()).x);
    // Both sentences' guesses side by side where they fit; else one sentence's at a time, its
    // guesses wrapped (a projector), with a choice of which.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float cells = 2 * style.CellPadding.x + 1;
    const float loss_width = ImGui::CalcTextSize("loss A (nats)").x + cells;
    const bool both = widest_label + widest_a + widest_b + 2 * loss_width + 3 * cells <=
                      ImGui::GetContentRegionAvail().x;
    guesses_narrow = !both; // the controls offer the choice of sentence (DrawRealSettings)
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    std::vector<std::vector<std::string>> shown;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        if (both || guesses_of == 0) shown.push_back(demo.top_text_a[k]);
        if (both || guesses_of != 0) shown.push_back(demo.top_text_b[k]);
    }
    const std::string bytes_note = ByteGuessNote(shown);
    if (!ImGui::BeginTable("##real_guesses", both ? 5 : 4, flags)) return;
    ImGui::TableSetupColumn("positions");
    ImGui::TableSetupColumn("loss A (nats)");
    ImGui::TableSetupColumn("loss B (nats)");
    if (both) {
        ImGui::TableSetupColumn(after_a.c_str());
        ImGui::TableSetupColumn(after_b.c_str());
    } else {
        ImGui::TableSetupColumn(guesses_of == 0 ? after_a.c_str() : after_b.c_str(),
                                ImGuiTableColumnFlags_WidthStretch);
    }
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const OrderRun& run = r.runs[k];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(demo.labels[k].c_str());
        if (demo.switch_ids[k] == "shuffle" && demo.shuffle_unchanged) {
            ImGui::SameLine();
            ImGui::TextDisabled("= as trained");
            FormulaTooltip("This seed's shuffle of so few tokens leaves them in order: try "
                           "another seed.");
        }
        for (const auto& [loss, tokens] :
             {std::pair{run.loss_a, r.tokens_a}, std::pair{run.loss_b, r.tokens_b}}) {
            ImGui::TableNextColumn();
            // One token: nothing inside the sentence to predict.
            if (tokens < 2)
                ImGui::TextDisabled("—");
            else
                ImGui::TextUnformatted(ShownNumber(loss, 3).c_str());
        }
        if (both) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(lines_a[k].c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(lines_b[k].c_str());
        } else {
            ImGui::TableNextColumn();
            FlowRow row;
            for (const std::string& guess : (guesses_of == 0 ? each_a : each_b)[k]) {
                row.Item(ImGui::CalcTextSize(guess.c_str()).x);
                ImGui::TextUnformatted(guess.c_str());
            }
        }
    }
    ImGui::EndTable();
    FormulaTooltip(
        "Loss: the mean cross-entropy (nats) of each next token of the sentence given "
        "the tokens before it; lower is better. The guesses: the five most likely tokens after the "
        "sentence's last one, with their probabilities.");
    frame.Record("order.real_guesses");
    if (!bytes_note.empty()) MutedWrappedText(bytes_note.c_str());
}

void OrderPanel::DrawRunProgress(FrameContext& /*frame*/, const RealOrderDemo* demo,
                                 bool computing) {
    if (computing) {
        const int done = real_progress->done.load(), total = real_progress->total.load();
        char line[96];
        if (total > 0)
            std::snprintf(line, sizeof line, "Running the model: pass %d of %d",
                          std::min(done + 1, total), total);
        else
            std::snprintf(line, sizeof line, "Running the model …");
        const float width =
            std::min(ImGui::GetContentRegionAvail().x * 0.5f, ImGui::GetFontSize() * 16.0f);
        ImGui::ProgressBar(total > 0 ? static_cast<float>(done) / static_cast<float>(total) : 0.0f,
                           ImVec2(width, 0), line);
        ImGui::SameLine();
        if (real_progress->cancel.load()) {
            ImGui::TextDisabled("stopping …");
        } else if (ImGui::SmallButton("Cancel##real_run")) {
            real_progress->cancel = true;
        }
        FormulaTooltip("Stops the passes after the one running (the last result stays on screen).");
        return;
    }
    if (demo == nullptr || !demo->cancelled) return;
    WrappedText(demo->error.c_str());
    if (ImGui::Button("Run again##real_run")) ++real_run;
}

} // namespace pelab
