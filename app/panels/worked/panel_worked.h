// panel_worked.h — the published worked example ("The cat sat" at d_model 4), generalised: a short
// sentence at a small d_model, its token embeddings (editable), the PE rows for positions 0…N−1 and
// X_final = embedding + PE, each X cell coloured by how much of it came from each part; and the
// same word at another position, to show that "cat"@0 ≠ "cat"@1.
#pragma once

#include "io/scene.h"

#include "panels/explanation.h"

#include "panels/panel.h"
#include "widgets/cached.h"
#include "widgets/plot.h"

#include <imgui.h>

#include <map>
#include <string>
#include <vector>

namespace pelab {

constexpr int kWorkedMaxTokens = 16;
constexpr int kWorkedMaxDModel = 16;
constexpr double kWorkedMaxValue = 100.0; ///< an embedding cell is in [−100, 100]

/// The example's own width, the second position of the probed word, and an embedding cell.
inline constexpr NumberControl kWorkedDModel{"worked_d_model",
                                             "the worked example's width",
                                             2,
                                             kWorkedMaxDModel,
                                             4,
                                             "d_model",
                                             "%d",
                                             false,
                                             nullptr,
                                             "worked.d_model",
                                             /*even=*/true};
inline constexpr NumberControl kWorkedProbePosition{
    "worked_probe_position",
    "that other position",
    0,
    1000,
    0,
    "at pos",
    "%d",
    false,
    "Put the chosen word at this position too (0 to 1000): same embedding, another PE row, so "
    "another X.",
    "worked.probe_position"};
inline constexpr NumberControl kWorkedCell{
    "worked_embeddings",
    "an embedding value",
    -kWorkedMaxValue,
    kWorkedMaxValue,
    0,
    "##e",
    "%.3f",
    false,
    "A value in [−100, 100]; every occurrence of this word shares it.",
    nullptr};

struct WorkedPanel : Panel {
    // Own settings (scene fields).
    std::string sentence = "The cat sat";
    int worked_d_model = 4;
    int probe_token = 1;    ///< which word of the sentence is also placed at probe_position
    int probe_position = 0; ///< "the same word at another position"
    /// Edited embeddings by lower-cased word (d ≤ 16 values each); words not here use
    /// WorkedDefaultEmbedding.
    std::map<std::string, std::vector<double>> edited;
    // View state.
    std::string sentence_note;           ///< why the typed sentence is not used
    float cell_width = 0;                ///< this frame's table column width
    float label_width = 0;               ///< this frame's first-column width
    int marked_pe = 0, marked_final = 0; ///< cells the published example prints otherwise
    plot::PlotView probe_view;           ///< the same word at two positions, per dimension
    int probe_view_d_model = 0;

    float TableWidth() const {
        return label_width + cell_width * static_cast<float>(worked_d_model) +
               ImGui::GetStyle().CellPadding.x * 2.0f * static_cast<float>(worked_d_model + 1);
    }

    void Draw(FrameContext& frame) override;
    void AddSceneFields(SceneTable& table) override;
    nlohmann::json Readouts(const AppState& state) const override;
    /// Every widget name the panel records (PanelInfo::widgets).
    static std::vector<WidgetName> WidgetNames();

    /// The words as typed (case kept for display), split at ASCII spaces; empty when the
    /// sentence is refused (then *why says why).
    std::vector<std::string> Tokens(std::string* why = nullptr) const;
    static std::vector<std::string> TokensOf(const std::string& sentence, std::string* why);
    /// A word's embedding at the current width: the edited values, else the default.
    std::vector<double> Embedding(const std::string& word) const;
    static std::vector<double>
    EmbeddingOf(const std::string& word, int d_model,
                const std::map<std::string, std::vector<double>>& edited);

    /// Every number the panel shows, computed once per change of the sentence, the width, the
    /// base, an edited cell or the probe: the three tables, the probe's chart and sentence, and
    /// Readouts all show this one result.
    struct Inputs {
        std::string sentence;
        int d_model = 0, probe_token = 0, probe_position = 0;
        double base = 0;
        std::map<std::string, std::vector<double>> edited;
        bool operator==(const Inputs& o) const {
            return sentence == o.sentence && d_model == o.d_model && probe_token == o.probe_token &&
                   probe_position == o.probe_position && base == o.base && edited == o.edited;
        }
    };
    struct Row {
        std::vector<double> embedding, pe, x; ///< x = embedding + pe, per dimension
    };
    struct Probe {
        int word = 0;                    ///< the word's index (its own position)
        std::vector<double> here, other; ///< its X row at its position and at probe_position
        double distance = 0;             ///< |here − other|
        Explanation sentence;
    };
    struct Result {
        std::vector<std::string> tokens; ///< empty when the sentence is refused
        std::string why;                 ///< why it was refused
        std::vector<Row> rows;           ///< one per token
        Probe probe;                     ///< when there are tokens
    };
    static Result Compute(const Inputs& inputs);
    const Result& ResultFor(const AppState& state) const;
    mutable Cached<Inputs, Result> result_cache;

private:
    void DrawControls(FrameContext& frame, const std::vector<std::string>& tokens);
    /// A table of "first_header" + one column per dimension, at this frame's widths.
    bool BeginDimTable(const char* id, const char* first_header) const;
    void DrawEmbeddingTable(FrameContext& frame, const Result& shown);
    void DrawPeTable(FrameContext& frame, const Result& shown);
    void DrawFinalTable(FrameContext& frame, const Result& shown);
    void DrawProbe(FrameContext& frame, const Result& shown);
};

/// The key of a word in the embedding table: ASCII letters lower-cased ("The" and "the" share).
std::string WorkedKey(std::string word);
/// The published example's embeddings for "the", "cat" and "sat" (d 4; dims beyond 4 and other
/// words get seeded values in [−1, 1] with one decimal, the same on every machine).
double WorkedDefaultEmbedding(const std::string& lower_word, int dim);
/// The published example's printed value for a PE cell (positions 0–3) or an X_final cell of
/// "The cat sat" (rows 0–2), or NaN where it printed none; the panel marks where ours differ.
double WorkedDocumentPe(int pos, int dim);
double WorkedDocumentFinal(int row, int dim);

/// The probe's sentence: the same word at two positions, how far apart its rows are, and
/// whether the encoding tells the positions apart (not when every pair barely moved or came
/// round: d_model 2, positions 0 and 44), with its claims.
Explanation ProbeSentence(const std::string& word, int there, int elsewhere, int d_model,
                          double base);

} // namespace pelab
