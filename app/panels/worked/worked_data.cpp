// The worked example's data: the published example's values, the words of the sentence, the
// embeddings (edited or default), and the panel's scene fields and readouts.
#include "panels/worked/panel_worked.h"

#include "io/scene.h"
#include "pelab/base/error.h"
#include "pelab/encodings/embedding.h"
#include "pelab/encodings/sinusoidal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pelab {

std::string WorkedKey(std::string word) {
    for (char& c : word)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return word;
}

double WorkedDefaultEmbedding(const std::string& lower_word, int dim) {
    // As published: "The" [0.2, 0.5, −0.1, 0.8], "cat" [0.7, −0.3, 0.6, 0.1],
    // "sat" [−0.4, 0.9, 0.2, −0.5].
    const std::map<std::string, std::vector<double>> document = {{"the", {0.2, 0.5, -0.1, 0.8}},
                                                                 {"cat", {0.7, -0.3, 0.6, 0.1}},
                                                                 {"sat", {-0.4, 0.9, 0.2, -0.5}}};
    const auto found = document.find(lower_word);
    if (found != document.end() && dim < 4) return found->second[dim];
    SplitMix64 generator(fnv1a_64(lower_word) ^ (0x9E3779B97F4A7C15ull * (dim + 1)));
    // + 0.0: a value that rounds to zero from below is 0, not −0 ("-0.000" on screen).
    return std::round((generator.uniform() * 2.0 - 1.0) * 10.0) / 10.0 + 0.0;
}

double WorkedDocumentPe(int pos, int dim) {
    const double printed[4][4] = {{0.000, 1.000, 0.000, 1.000},
                                  {0.841, 0.540, 0.010, 0.999},
                                  {0.909, -0.416, 0.020, 0.999},
                                  {0.141, -0.990, 0.030, 0.999}};
    return pos >= 0 && pos < 4 && dim >= 0 && dim < 4 ? printed[pos][dim]
                                                      : std::numeric_limits<double>::quiet_NaN();
}

double WorkedDocumentFinal(int row, int dim) {
    const double printed[3][4] = {
        {0.200, 1.500, -0.100, 1.800}, {1.541, 0.240, 0.610, 1.099}, {0.509, 0.484, 0.220, 0.499}};
    return row >= 0 && row < 3 && dim >= 0 && dim < 4 ? printed[row][dim]
                                                      : std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::string> WorkedPanel::Tokens(std::string* why) const {
    return TokensOf(sentence, why);
}

std::vector<std::string> WorkedPanel::TokensOf(const std::string& sentence, std::string* why) {
    try {
        tokenize(sentence); // UTF-8, length and emptiness checks
    } catch (const InvalidArgument& e) {
        if (why != nullptr) *why = e.what();
        return {};
    }
    std::vector<std::string> tokens;
    std::string current;
    for (const char c : sentence + " ") {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            if (!current.empty()) tokens.push_back(current);
            current.clear();
        } else {
            current.push_back(c);
        }
    }
    if (static_cast<int>(tokens.size()) > kWorkedMaxTokens) {
        if (why != nullptr)
            *why = "the worked example takes at most 16 words (got " +
                   std::to_string(tokens.size()) + ")";
        return {};
    }
    return tokens;
}

std::vector<double> WorkedPanel::Embedding(const std::string& word) const {
    return EmbeddingOf(word, worked_d_model, edited);
}

std::vector<double>
WorkedPanel::EmbeddingOf(const std::string& word, int worked_d_model,
                         const std::map<std::string, std::vector<double>>& edited) {
    const std::string key = WorkedKey(word);
    std::vector<double> row(static_cast<std::size_t>(worked_d_model));
    const auto found = edited.find(key);
    for (int dim = 0; dim < worked_d_model; ++dim)
        row[dim] = found != edited.end() && dim < static_cast<int>(found->second.size())
                       ? found->second[dim]
                       : WorkedDefaultEmbedding(key, dim);
    return row;
}

void WorkedPanel::AddSceneFields(SceneTable& table) {
    table.Text("worked_sentence", "text, valid UTF-8, 1 to 16 words: the worked example's sentence",
               &sentence, [](const std::string& text) {
                   WorkedPanel probe;
                   probe.sentence = text;
                   std::string why;
                   return probe.Tokens(&why).empty() ? why : std::string();
               });
    table.Integer(kWorkedDModel, &worked_d_model);
    table.Integer("worked_probe_word", "the word also placed at another position", &probe_token, 0,
                  kWorkedMaxTokens - 1);
    table.Integer(kWorkedProbePosition, &probe_position);
    table.Add(
        {"worked_embeddings",
         "object: word -> list of up to 16 numbers in [-100, 100], edited embeddings",
         [this](const nlohmann::json& value, const nlohmann::json&) -> std::function<void()> {
             if (!value.is_object()) throw SceneFieldError{"must be an object of word: [numbers]"};
             if (value.size() > 256) throw SceneFieldError{"at most 256 words"};
             std::map<std::string, std::vector<double>> table_value;
             for (const auto& item : value.items()) {
                 if (!item.value().is_array() || item.value().size() > kWorkedMaxDModel)
                     throw SceneFieldError{"\"" + item.key() +
                                           "\" must be a list of up to 16 numbers"};
                 std::vector<double>& row = table_value[WorkedKey(item.key())];
                 for (const nlohmann::json& number : item.value())
                     try {
                         row.push_back(SceneNumber(number, -kWorkedMaxValue, kWorkedMaxValue));
                     } catch (const SceneFieldError& e) {
                         throw SceneFieldError{"\"" + item.key() + "\"[" +
                                               std::to_string(row.size()) + "]: " + e.message};
                     }
             }
             return [this, table_value] { edited = table_value; };
         },
         [this] { return nlohmann::json(edited); }});
}

WorkedPanel::Result WorkedPanel::Compute(const Inputs& inputs) {
    Result result;
    result.tokens = TokensOf(inputs.sentence, &result.why);
    const int d = inputs.d_model;
    const auto x_row = [&](const std::vector<double>& embedding, int pos) {
        Row row;
        row.embedding = embedding;
        for (int dim = 0; dim < d; ++dim) {
            row.pe.push_back(pe_value(pos, dim, d, inputs.base));
            row.x.push_back(embedding[dim] + row.pe.back());
        }
        return row;
    };
    for (int pos = 0; pos < static_cast<int>(result.tokens.size()); ++pos)
        result.rows.push_back(x_row(EmbeddingOf(result.tokens[pos], d, inputs.edited), pos));
    if (result.tokens.empty()) return result;
    // The same word at another position: the same embedding, another PE row.
    Probe& probe = result.probe;
    probe.word = std::clamp(inputs.probe_token, 0, static_cast<int>(result.tokens.size()) - 1);
    probe.here = result.rows[probe.word].x;
    probe.other = x_row(result.rows[probe.word].embedding, inputs.probe_position).x;
    double distance_squared = 0;
    for (int dim = 0; dim < d; ++dim)
        distance_squared +=
            (probe.here[dim] - probe.other[dim]) * (probe.here[dim] - probe.other[dim]);
    probe.distance = std::sqrt(distance_squared);
    probe.sentence =
        ProbeSentence(result.tokens[probe.word], probe.word, inputs.probe_position, d, inputs.base);
    return result;
}

const WorkedPanel::Result& WorkedPanel::ResultFor(const AppState& state) const {
    return result_cache.Get(
        Inputs{sentence, worked_d_model, probe_token, probe_position, state.base, edited}, Compute);
}

nlohmann::json WorkedPanel::Readouts(const AppState& state) const {
    const Result& shown = ResultFor(state);
    nlohmann::json embeddings = nlohmann::json::array(), pe = nlohmann::json::array(),
                   final_rows = nlohmann::json::array();
    for (const Row& row : shown.rows) {
        embeddings.push_back(row.embedding);
        pe.push_back(row.pe);
        final_rows.push_back(row.x);
    }
    nlohmann::json result = {{"tokens", shown.tokens},
                             {"d_model", worked_d_model},
                             {"embeddings", embeddings},
                             {"pe", pe},
                             {"x_final", final_rows}};
    if (!shown.tokens.empty())
        result["probe"] = {{"word", shown.tokens[shown.probe.word]},
                           {"position", shown.probe.word},
                           {"other_position", probe_position},
                           {"x_other", shown.probe.other},
                           {"distance", shown.probe.distance}};
    return result;
}

} // namespace pelab
