#include "scene.h"

#include "app_ui.h"
#include "json_input.h"
#include "pelab/attention.h"
#include "pelab/embedding.h"
#include "pelab/error.h"
#include "pelab/export.h"
#include "pelab/similarity.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace pelab {

namespace {

using nlohmann::json;

// Thrown inside ApplySceneText only; carries the one-line message.
struct SceneFieldError {
    std::string message;
};

[[noreturn]] void Fail(const std::string& field, const std::string& what) {
    throw SceneFieldError{"field \"" + field + "\": " + what};
}

double Number(const json& doc, const char* field, double min, double max) {
    const json& value = doc.at(field);
    if (!value.is_number()) Fail(field, "must be a number");
    const double x = value.get<double>();
    if (!std::isfinite(x) || x < min || x > max) {
        std::ostringstream range;
        range << "must be in [" << min << ", " << max << "] (got " << Excerpt(value) << ")";
        Fail(field, range.str());
    }
    return x;
}

int Integer(const json& doc, const char* field, int min, int max) {
    const json& value = doc.at(field);
    if (!value.is_number_integer())
        Fail(field, "must be a whole number (got " + Excerpt(value) + ")");
    // Unsigned first: 2^64 − 1 must be reported as itself, not wrapped to −1.
    bool in_range = false;
    if (value.is_number_unsigned()) {
        const unsigned long long x = value.get<unsigned long long>();
        in_range = max >= 0 && x <= static_cast<unsigned long long>(max) &&
                   (min <= 0 || x >= static_cast<unsigned long long>(min));
    } else {
        const long long x = value.get<long long>();
        in_range = x >= min && x <= max;
    }
    if (!in_range)
        Fail(field, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "] (got " +
                        Excerpt(value) + ")");
    return static_cast<int>(value.get<long long>());
}

bool Bool(const json& doc, const char* field) {
    if (!doc.at(field).is_boolean()) Fail(field, "must be true or false");
    return doc.at(field).get<bool>();
}

std::string Sentence(const json& doc, const char* field) {
    if (!doc.at(field).is_string()) Fail(field, "must be text");
    const std::string text = doc.at(field).get<std::string>();
    try {
        tokenize(text);
    } catch (const InvalidArgument& e) {
        Fail(field, e.what());
    }
    return text;
}

// clang-format off
constexpr const char* kKnownFields[] = {
    "format", "version", "readouts", "d_model", "base", "pos_a", "pos_b", "pair",
    "pe_enabled", "pe_scale", "sentence_a", "sentence_b", "open_panels", "shift_k",
    "scale_embeddings", "order_d_model", "random_embeddings", "embedding_seed", "font_scale",
    "presented_panel"};
// clang-format on

bool IsKnownField(const std::string& name) {
    for (const char* known : kKnownFields)
        if (name == known) return true;
    return false;
}

} // namespace

std::string ApplySceneText(const std::string& json_text, AppState& state) {
    json doc;
    if (std::string error = ParseJsonInput(json_text, &doc); !error.empty()) return error;
    if (!doc.is_object()) return "a scene must be a JSON object { … }";
    AppState next = state; // all or nothing
    try {
        for (const auto& item : doc.items())
            if (!IsKnownField(item.key()))
                throw SceneFieldError{"unknown field " + Excerpt(json(item.key())) +
                                      " (check the spelling; see the README for the list)"};
        if (doc.contains("format") && doc["format"] != "pelab-scene")
            Fail("format", "must be \"pelab-scene\"");
        if (doc.contains("d_model")) {
            next.d_model = Integer(doc, "d_model", 2, kUiMaxDModel);
            if (next.d_model % 2 != 0) Fail("d_model", "must be even (sin/cos pairs)");
        }
        if (doc.contains("base")) next.base = Number(doc, "base", kUiMinBase, kUiMaxBase);
        if (doc.contains("pos_a")) next.pos_a = Number(doc, "pos_a", 0.0, kUiMaxPosition);
        if (doc.contains("pos_b")) next.pos_b = Number(doc, "pos_b", 0.0, kUiMaxPosition);
        if (doc.contains("pair"))
            next.pair = Integer(doc, "pair", 0, next.d_model / 2 - 1);
        else
            next.pair = std::min(next.pair, next.d_model / 2 - 1);
        if (doc.contains("pe_enabled")) next.pe_enabled = Bool(doc, "pe_enabled");
        if (doc.contains("pe_scale")) next.pe_scale = Number(doc, "pe_scale", 0.0, 100.0);
        if (doc.contains("sentence_a")) next.sentence_a = Sentence(doc, "sentence_a");
        if (doc.contains("sentence_b")) next.sentence_b = Sentence(doc, "sentence_b");
        if (doc.contains("shift_k"))
            next.shift_k = Integer(doc, "shift_k", -kUiMaxShift, kUiMaxShift);
        if (doc.contains("scale_embeddings")) next.scale_embeddings = Bool(doc, "scale_embeddings");
        if (doc.contains("order_d_model")) {
            next.order_d_model = Integer(doc, "order_d_model", 2, kUiMaxOrderDModel);
            if (next.order_d_model % 2 != 0) Fail("order_d_model", "must be even");
        }
        if (doc.contains("random_embeddings"))
            next.random_embeddings = Bool(doc, "random_embeddings");
        if (doc.contains("embedding_seed"))
            next.embedding_seed = Integer(doc, "embedding_seed", 0, 2147483647);
        if (doc.contains("font_scale"))
            next.font_scale = static_cast<float>(Number(doc, "font_scale", 0.5, 4.0));
        if (doc.contains("presented_panel")) {
            const json& name = doc["presented_panel"];
            if (!name.is_string() ||
                (!name.get<std::string>().empty() && !IsKnownPanel(name.get<std::string>())))
                Fail("presented_panel", "must be \"\" or a panel name: " + PanelNameList());
            next.presented_panel = name.get<std::string>();
        }
        if (doc.contains("open_panels")) {
            const json& panels = doc["open_panels"];
            if (!panels.is_array()) Fail("open_panels", "must be a list of panel names");
            next.show_waves = next.show_compare = next.show_clocks = next.show_order = false;
            for (const json& name : panels) {
                if (!name.is_string() || !IsKnownPanel(name.get<std::string>()))
                    Fail("open_panels",
                         "unknown panel " + Excerpt(name) + "; known: " + PanelNameList());
                const std::string panel = name.get<std::string>();
                if (panel == "waves") next.show_waves = true;
                if (panel == "compare") next.show_compare = true;
                if (panel == "clocks") next.show_clocks = true;
                if (panel == "order") next.show_order = true;
            }
        }
    } catch (const SceneFieldError& e) {
        return e.message;
    }
    state = next;
    state.Clamp();
    return {};
}

std::string LoadSceneFile(const std::string& path, AppState& state) {
    std::string text;
    if (std::string error = ReadInputFile(path, kMaxInputBytes, &text); !error.empty())
        return "scene " + error;
    const std::string error = ApplySceneText(text, state);
    return error.empty() ? error : "scene " + Excerpt(json(path), 200) + ": " + error;
}

std::string SceneText(const AppState& state, bool with_readouts) {
    json doc;
    doc["format"] = "pelab-scene";
    doc["version"] = 1;
    doc["d_model"] = state.d_model;
    doc["base"] = state.base;
    doc["pos_a"] = state.pos_a;
    doc["pos_b"] = state.pos_b;
    doc["pair"] = state.pair;
    doc["pe_enabled"] = state.pe_enabled;
    doc["pe_scale"] = state.pe_scale;
    doc["sentence_a"] = state.sentence_a;
    doc["sentence_b"] = state.sentence_b;
    doc["shift_k"] = state.shift_k;
    doc["scale_embeddings"] = state.scale_embeddings;
    doc["order_d_model"] = state.order_d_model;
    doc["random_embeddings"] = state.random_embeddings;
    doc["embedding_seed"] = state.embedding_seed;
    doc["font_scale"] = state.font_scale;
    doc["presented_panel"] = state.presented_panel;
    json panels = json::array();
    if (state.show_waves) panels.push_back("waves");
    if (state.show_compare) panels.push_back("compare");
    if (state.show_clocks) panels.push_back("clocks");
    if (state.show_order) panels.push_back("order");
    doc["open_panels"] = panels;
    if (with_readouts) {
        const PositionComparison c =
            compare_positions(state.pos_a, state.pos_b, state.d_model, state.base);
        json readouts = {{"distance", c.distance},
                         {"dot_product", c.dot_product},
                         {"cosine_similarity", c.cosine_similarity},
                         {"euclidean_distance", c.euclidean_distance},
                         {"wavelength", wavelength(state.pair, state.d_model, state.base)}};
        try {
            OrderDemoOptions options;
            options.d_model = state.order_d_model;
            options.embedding =
                state.random_embeddings ? EmbeddingKind::Random : EmbeddingKind::OneHot;
            options.seed = static_cast<std::uint64_t>(state.embedding_seed);
            options.positional = {state.pe_enabled, state.pe_scale, state.scale_embeddings,
                                  state.base};
            const OrderDemoResult r = run_order_demo(state.sentence_a, state.sentence_b, options);
            readouts["order_same_up_to_reordering"] = r.verdict.same_up_to_reordering;
            readouts["order_max_reorder_diff"] = r.verdict.max_difference;
        } catch (const InvalidArgument& e) {
            readouts["order_error"] = e.what();
        }
        doc["readouts"] = readouts;
    }
    return doc.dump(2) + "\n";
}

std::string SaveSceneFile(const std::string& path, const AppState& state, bool with_readouts) {
    try {
        const std::string text = SceneText(state, with_readouts);
        write_file_atomically(path, [&](std::ostream& out) { out << text; });
    } catch (const IoError& e) {
        return e.what();
    }
    return {};
}

} // namespace pelab
