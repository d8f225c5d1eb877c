// The order panel's scene fields, readouts and widget names (both views): what a scene sets,
// what `pelab readouts` prints and what a lesson may outline. The drawing is in panel_order.cpp
// (the toy words) and order_real_view.cpp (the real model).
#include "io/scene.h"
#include "panels/order/panel_order.h"
#include "panels/scene_controls.h"
#include "pelab/base/error.h"
#include "pelab/base/limits.h"
#include "pelab/encodings/attention.h"
#include "pelab/encodings/embedding.h"

#include <string>
#include <vector>

namespace pelab {

void OrderPanel::AddSceneFields(SceneTable& table) {
    table.Bool("pe_enabled", "order demo adds the positional encoding", &pe_enabled);
    table.Number(kOrderPeScale, &pe_scale);
    const auto check_sentence = [](const std::string& text) {
        try {
            tokenize(text);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    table.Text("sentence_a", "text, valid UTF-8, 1 to 32 words: order demo sentence A", &sentence_a,
               check_sentence);
    table.Text("sentence_b", "text, valid UTF-8, 1 to 32 words: order demo sentence B", &sentence_b,
               check_sentence);
    table.Bool("scale_embeddings", "order demo multiplies embeddings by √d", &scale_embeddings);
    table.Integer(kOrderDModel, &order_d_model);
    table.Bool("random_embeddings", "order demo uses seeded random embeddings, not one-hot",
               &random_embeddings);
    table.Integer(kOrderSeed, &embedding_seed);
    const auto one_of = [](const std::vector<std::string>& ids) {
        return [ids](const std::string& text) {
            std::string list;
            for (const std::string& id : ids) {
                if (text == id) return std::string();
                list += (list.empty() ? "" : ", ") + id;
            }
            return "must be one of " + list;
        };
    };
    table.Text("order_view",
               "text: the order panel's view, toy (a few words) or real (GPT-2 or a rotary model)",
               &order_view, one_of({"toy", "real"}));
    const auto check_text = [](const std::string& text) {
        return text.size() > kMaxSentenceBytes
                   ? "holds " + std::to_string(text.size()) + " bytes; at most " +
                         std::to_string(kMaxSentenceBytes)
                   : std::string();
    };
    table.Text("real_text_a", "text: the Real model view's sentence A", &real_text_a, check_text);
    table.Text("real_text_b", "text: the Real model view's sentence B", &real_text_b, check_text);
    table.Integer(kRealBlock, &real_block);
    table.Integer(kRealHead, &real_head);
    table.Text(
        "real_switch",
        "text: the Real model view's attention under the positions trained, shift, and "
        "GPT-2's zero, mean, shuffle, sinusoidal or a rotary model's none, pairing, base, "
        "scaling-off, nope-from",
        &real_switch,
        one_of(std::vector<std::string>(std::begin(kRealSwitchIds), std::end(kRealSwitchIds))));
    table.Integer(kRealShuffleSeed, &real_shuffle_seed);
    table.Integer(kRealShift, &real_shift);
    table.Number(kRealBaseFactor, &real_base_factor);
    table.Integer(kRealNopeBlock, &real_nope_block);
}

std::string OrderPanel::StatusNote(const AppState& /*state*/) const {
    return "order demo: its own d_model " + std::to_string(order_d_model);
}

nlohmann::json OrderPanel::Readouts(const AppState& state) const {
    nlohmann::json out = ToyReadouts(state);
    out["view"] = order_view;
    if (order_view == "real") out["real"] = RealReadouts(state);
    return out;
}

nlohmann::json OrderPanel::RealReadouts(const AppState& state) const {
    bool computing = false;
    std::string why;
    const RealOrderDemo* demo = RealFor(state, false, &computing, &why);
    if (demo == nullptr && !NothingToRun(state).empty()) return {{"needs", why}};
    if (demo == nullptr) return {{"error", why}, {"needs", kRealNeeds}};
    if (!demo->error.empty()) return {{"error", demo->error}, {"needs", kRealNeeds}};
    const OrderResult& r = demo->result;
    nlohmann::json switches = nlohmann::json::array();
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const OrderRun& run = r.runs[k];
        nlohmann::json top_a = nlohmann::json::array(), top_b = nlohmann::json::array();
        for (std::size_t g = 0; g < run.top_a.size(); ++g)
            top_a.push_back({{"id", run.top_a[g].id},
                             {"text", demo->top_text_a[k][g]},
                             {"probability", run.top_a[g].probability}});
        for (std::size_t g = 0; g < run.top_b.size(); ++g)
            top_b.push_back({{"id", run.top_b[g].id},
                             {"text", demo->top_text_b[k][g]},
                             {"probability", run.top_b[g].probability}});
        nlohmann::json each = {{"id", demo->switch_ids[k]},
                               {"positions", demo->names[k]},
                               {"label", demo->labels[k]},
                               {"loss_a", run.loss_a},
                               {"loss_b", run.loss_b},
                               {"top_a", top_a},
                               {"top_b", top_b},
                               {"last_distances", run.last_distances},
                               {"same_prefix_block1", run.same_prefix_block1}};
        if (k < demo->switch_sentences.size()) {
            each["note"] = demo->notes[k];
            each["sentence"] = demo->switch_sentences[k].text;
            each["claims"] = ClaimsJson(demo->switch_sentences[k]);
        }
        switches.push_back(std::move(each));
    }
    nlohmann::json out = {{"model", demo->rotary ? "rotary" : "gpt2"},
                          {"family", demo->family},
                          {"tokens_a", demo->ids_a},
                          {"tokens_b", demo->ids_b},
                          {"token_texts_a", demo->pieces_a},
                          {"token_texts_b", demo->pieces_b},
                          {"blocks", r.layers},
                          {"heads", r.heads},
                          {"shift_used", demo->shift_used},
                          {"same_prefix", r.same_prefix},
                          {"switches", switches},
                          {"sentence", demo->sentence.text},
                          {"claims", ClaimsJson(demo->sentence)}};
    if (demo->rotary) {
        // The switches' settings (a lesson's caption may quote them).
        out["base_factor"] = demo->rotary_switches.at(3).base_factor;
        out["nope_block"] = demo->rotary_switches.at(6).nope_from + 1;
    }
    if (demo->shift.shift > 0)
        out["shift_closeness"] = {{"shift", demo->shift.shift},
                                  {"f32", demo->shift.f32},
                                  {"bf16", demo->shift.bf16},
                                  {"loss_f32", demo->shift.loss_f32},
                                  {"loss_bf16", demo->shift.loss_bf16},
                                  {"absolute_layers", demo->shift.absolute_layers},
                                  {"absolute_rule", demo->shift.absolute_rule}};
    return out;
}

nlohmann::json OrderPanel::ToyReadouts(const AppState& state) const {
    const Demo& demo = DemoFor(state);
    if (!demo.error.empty()) return {{"error", demo.error}};
    const OrderDemoResult& r = demo.result;
    return {{"tokens_a", r.tokens_a},
            {"tokens_b", r.tokens_b},
            {"same_multiset", r.verdict.same_multiset},
            {"same_up_to_reordering", r.verdict.same_up_to_reordering},
            {"max_reorder_diff", r.verdict.max_difference},
            {"equivariance_residual", r.equivariance},
            {"verdict", OrderVerdictText(r, pe_enabled)}};
}

std::vector<WidgetName> OrderPanel::WidgetNames() {
    // Every name this panel records, in any of its modes (tests/widget_names_test.cpp).
    return {
        ControlWidget(kOrderDModel),
        ControlWidget(kOrderDimsShown),
        {"order.difference",
         "the B − A matrix: B's scores in A's word order, minus A's",
         {"tokens_a"}},
        {"order.explanation",
         "the written verdict paragraph: where the two orders' scores differ",
         {"verdict"}},
        {"order.first_word", "the line on the second word's score for the first, in A and B"},
        {"order.one_hot", "the one-hot words choice: each word gets a dimension of its own"},
        {"order.pe_enabled", "the tick box that adds the positional encoding to the words"},
        ControlWidget(kOrderPeScale),
        {"order.random", "the random words choice: seeded random vectors for the words"},
        {"order.reordering_check",
         "the re-ordering check: 0 when attention cannot see order",
         {"equivariance_residual"}},
        {"order.same_words", "the grey line comparing the same two words' scores in A and B"},
        {"order.scale_embeddings", "the E·√d tick box: word vectors times √d_model first"},
        {"order.scores_a", "sentence A's raw score matrix QKᵀ, with its title", {"tokens_a"}},
        {"order.scores_b", "sentence B's raw score matrix QKᵀ, with its title", {"tokens_b"}},
        ControlWidget(kOrderSeed, "box"),
        {"order.sentence_a", "the text box where sentence A is typed"},
        {"order.sentence_b", "the text box where sentence B is typed"},
        {"order.swap", "the swap button that exchanges sentences A and B"},
        {"order.verdict",
         "the coloured verdict: can the scores tell the two orders apart",
         {"max_reorder_diff"}},
        {"order.weights_a",
         "sentence A's attention weights softmax(QKᵀ/√d), with its title",
         {"tokens_a"}},
        {"order.weights_b",
         "sentence B's attention weights softmax(QKᵀ/√d), with its title",
         {"tokens_b"}},
        {"order.weights_legend", "the colour key of the attention weights, 0 to 1"},
        {"order.words_help", "the (?) marker on how the sentences are split into words"},
        {"order.tab_toy", "the Toy words tab: the demo on a few words"},
        {"order.tab_real", "the Real model tab: the demo on the checkpoint open"},
        {"order.real_needs", "the line saying which files to bring for the Real model view"},
        {"order.real_error",
         "why the Real model view cannot run the checkpoint or sentences",
         {"real"}},
        {"order.real_text_a", "the Real model view's sentence A"},
        {"order.real_text_b", "the Real model view's sentence B"},
        ControlWidget(kRealBlock),
        ControlWidget(kRealHead),
        {"order.real_model", "the line naming the checkpoint run and its size", {"real"}},
        {"order.real_guesses_of", "the choice of whose next-word guesses a narrow table shows"},
        {"order.real_switch", "the menu of the position switch the attention is drawn under"},
        ControlWidget(kRealShuffleSeed, "box"),
        ControlWidget(kRealShift, "box"),
        ControlWidget(kRealBaseFactor),
        ControlWidget(kRealNopeBlock),
        {"order.real_switch_sentence",
         "a rotary model's sentence on what the chosen switch did",
         {"real"}},
        {"order.real_shift_closeness",
         "per block, how much a shift of every position changes the attention (f32, bf16)",
         {"real"}},
        {"order.real_tokens_a",
         "sentence A cut into the model's tokens, their boundaries drawn",
         {"real"}},
        {"order.real_tokens_b",
         "sentence B cut into the model's tokens, their boundaries drawn",
         {"real"}},
        {"order.real_attention_a", "sentence A's attention of the chosen block and head", {"real"}},
        {"order.real_attention_b", "sentence B's attention of the chosen block and head", {"real"}},
        {"order.real_attention_key", "the colour key of the attention weights", {"real"}},
        {"order.real_guesses",
         "each position switch's loss per sentence and next-word top 5",
         {"real"}},
        {"order.real_distances",
         "per block, how far apart the two last tokens' states are, per switch",
         {"real"}},
        {"order.real_sentence", "the sentence on what the model keeps without positions", {"real"}},
    };
}

} // namespace pelab
