#include "shell/glossary.h"

#include "widgets/layout.h"

#include "widgets/widgets.h"

#include <imgui.h>

namespace pelab {

namespace {
constexpr GlossaryEntry kEntries[] = {
    {"pos", "A token's position in the sequence: 0 for the first word, 1 for the next, and so on."},
    {"d_model", "The width of every vector in the model: how many numbers describe one token."},
    {"PE(pos)", "The positional encoding of a position: d_model numbers added to the token's "
                "embedding so that the model can tell where the token is."},
    {"pair i", "Dimensions 2i and 2i + 1 of the encoding, a sin and a cos of the same angle; "
               "there are d_model / 2 pairs."},
    {"ω_i (omega)", "How fast pair i turns: the angle, in radians, that its hand moves from one "
                    "position to the next. ω_i = base^(−2i/d_model), from 1 for pair 0 down to "
                    "about 1/base for the last pair."},
    {"base", "The number that spreads the speeds: a larger base makes the slow pairs slower. "
             "The original transformer uses 10000."},
    {"denominator", "base^(2i/d_model): what pos is divided by before taking sin and cos in pair "
                    "i; its inverse is ω_i."},
    {"λ (lambda), wavelength", "How many positions pair i needs for one full turn: 2π / ω_i."},
    {"angle", "ω_i · pos: where pair i's hand points at this position (in radians; 2π is one "
              "turn)."},
    {"k (shift)", "An offset added to positions: moving from pos to pos + k turns every pair by "
                  "ω_i · k, whatever pos is."},
    {"dot product", "Σ over dimensions of PE(A) × PE(B): large when the two encodings point the "
                    "same way. For this encoding it only depends on the distance A − B."},
    {"cosine similarity", "The dot product divided by the two lengths: 1 for the same direction, "
                          "0 for unrelated, −1 for opposite."},
    {"E (embedding)", "The vector that stands for a word before any position is added."},
    {"one-hot", "An embedding with a single 1 and zeros elsewhere, one dimension per word."},
    {"X = E + PE", "The input rows attention sees: each word's embedding plus its position's "
                   "encoding."},
    {"QKᵀ (scores)", "The table of dot products between every pair of input rows (queries Q "
                     "against keys K): how strongly each word attends to each other word before "
                     "the softmax."},
    {"softmax", "Turns a row of scores into weights that are positive and add up to 1; larger "
                "scores get most of the weight."},
    {"√d", "The square root of d_model: scores are divided by it before the softmax so that "
           "wide vectors do not give huge scores."},
};
} // namespace

const GlossaryEntry* GlossaryEntries(int* count) {
    *count = static_cast<int>(sizeof kEntries / sizeof kEntries[0]);
    return kEntries;
}

void DrawGlossary(bool* open) {
    if (!*open) return;
    const float font = ImGui::GetFontSize();
    PlaceFloatingWindow(ImVec2(font * 36, font * 24));
    // Opaque whatever the theme's window alpha: it floats over the panels and must read alone.
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (!ImGui::Begin("Glossary", open, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    KeepWindowInViewport();
    if (ImGui::BeginTable("##glossary", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("term", ImGuiTableColumnFlags_WidthFixed, font * 9);
        ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
        for (const GlossaryEntry& entry : kEntries) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            WrappedText(entry.term);
            ImGui::TableSetColumnIndex(1);
            WrappedText(entry.meaning);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

} // namespace pelab
